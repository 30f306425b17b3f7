import { SignatureCheck, TransportKeyring } from './transport-keyring';
import { RejectionLog } from './rejection-log';
import { replyMessage, replyParts } from './wire';

/**
 * What else crosses Redis carrying meaning, signed like the transport's messages: a shared cache entry is bound to its
 * Redis key and a broadcast to its channel, so neither can be forged, nor moved to another key or channel, by someone
 * who can only write to Redis.
 */
export const cacheContext = (key: string): string => `cache ${key}`;
export const broadcastContext = (channel: string): string => `broadcast ${channel}`;

/** `text` signed for `context`, as it is stored or published: the signature, a space, then the text. */
export function signValue(keyring: TransportKeyring, context: string, text: string): string {
  return replyMessage(keyring.sign(context, text), text);
}

export type OpenedValue = { ok: true; text: string } | { ok: false; reason: Exclude<SignatureCheck, 'ok'> };

/** The text of a value signed for `context`, or why it is refused. */
export function openValue(keyring: TransportKeyring, context: string, value: string): OpenedValue {
  const { text, signature } = replyParts(value);
  const check = keyring.verify(context, text, signature);
  return check === 'ok' ? { ok: true, text } : { ok: false, reason: check };
}

/** A broadcast listener that hands on the text of messages signed for `channel`; any other goes to `rejections`. */
export function signedListener(keyring: TransportKeyring, channel: string, rejections: RejectionLog, listener: (text: string) => void): (message: string) => void {
  return (message) => {
    const opened = openValue(keyring, broadcastContext(channel), message);
    if (opened.ok) {
      listener(opened.text);
    } else {
      rejections.rejected(opened.reason);
    }
  };
}
