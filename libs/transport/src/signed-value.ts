import { AppName } from '@game-wallet/contracts';
import { RejectionLog } from './rejection-log';
import { RejectionReason, TransportKeys } from './transport-keys';
import { replyMessage, replyParts } from './wire';

/**
 * What else crosses Redis carrying meaning, signed like the transport's messages with the key of the link it travels
 * on: a shared cache entry is bound to its Redis key and a broadcast to its channel, so neither can be forged, nor
 * moved to another key or channel, by someone who can only write to Redis; and a reader takes it only from the app
 * that owns it (API-key cache entries and revocations from identity, say), so no other app's keys can make one.
 */
export const cacheContext = (key: string): string => `cache ${key}`;
export const broadcastContext = (channel: string): string => `broadcast ${channel}`;

/** `text` signed for `context`, for the app `to`, as it is stored or published: the signature, a space, then the text. */
export function signValue(keys: TransportKeys, to: AppName, context: string, text: string): string {
  return replyMessage(keys.sign(to, context, text), text);
}

export type OpenedValue = { ok: true; text: string } | { ok: false; reason: RejectionReason };

/** The text of a value signed by `from` for `context`, or why it is refused. */
export function openValue(keys: TransportKeys, from: AppName, context: string, value: string): OpenedValue {
  const { text, signature } = replyParts(value);
  const verified = keys.verify(context, text, signature);
  if (verified.check !== 'ok') {
    return { ok: false, reason: verified.check };
  }
  return verified.sender === from ? { ok: true, text } : { ok: false, reason: 'refused-sender' };
}

/** A broadcast listener that hands on the text of messages `from` signed for `channel`; any other goes to `rejections`. */
export function signedListener(keys: TransportKeys, from: AppName, channel: string, rejections: RejectionLog, listener: (text: string) => void): (message: string) => void {
  return (message) => {
    const opened = openValue(keys, from, broadcastContext(channel), message);
    if (opened.ok) {
      listener(opened.text);
    } else {
      rejections.rejected(opened.reason);
    }
  };
}
