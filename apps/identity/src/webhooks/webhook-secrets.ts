import { randomBytes } from 'node:crypto';
import { open, seal } from '@game-wallet/crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` and 32 random bytes, base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const aad = (endpointId: string): Buffer => Buffer.from(`webhook-secret|${endpointId}`);

/**
 * An endpoint's secret as stored: AES-256-GCM under identity's key-encryption key (`IDENTITY_KEY_ENCRYPTION_KEY`),
 * bound to the endpoint (a sealed secret moved to another row does not open).
 */
export function sealWebhookSecret(key: Buffer, endpointId: string, secret: string): string {
  const sealed = seal(key, Buffer.from(secret, 'utf8'), aad(endpointId));
  return ['v1', ...[sealed.iv, sealed.ciphertext, sealed.tag].map((part) => part.toString('base64url'))].join('.');
}

export function openWebhookSecret(key: Buffer, endpointId: string, stored: string): string {
  const [version, iv, ciphertext, tag] = stored.split('.');
  if (version !== 'v1' || iv === undefined || ciphertext === undefined || tag === undefined) {
    throw new Error('webhook secret: unknown format');
  }
  const part = (value: string): Buffer => Buffer.from(value, 'base64url');
  return open(key, { iv: part(iv), ciphertext: part(ciphertext), tag: part(tag) }, aad(endpointId)).toString('utf8');
}

/**
 * The `webhook-signature` header (Standard Webhooks, signed by the `standardwebhooks` package): one `v1,<base64>`
 * signature per secret, space-separated, so during a rotation a receiver holding either secret verifies it.
 */
export function webhookSignature(secrets: readonly string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}
