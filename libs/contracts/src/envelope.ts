import { Principal } from './principal';

/**
 * The data part of every transport message: the typed payload of the pattern plus who asked. The request id and the
 * deadline travel in the transport's own header, not here.
 */
export interface MessageEnvelope<T = unknown> {
  payload: T;
  principal: Principal;
}
