import { createHash } from 'node:crypto';

/**
 * What a console password becomes before it leaves the gateway: SHA-256 over a domain tag, the normalized e-mail and
 * the password. Requests cross Redis on their way to identity, and a password must never appear in Redis; identity
 * keeps an scrypt hash of this digest, never of the password itself (the same function turns CONSOLE_ADMIN_PASSWORD
 * into what it stores). The e-mail acts as a salt, so equal passwords of two operators differ on the wire.
 */
export function consolePasswordDigest(email: string, password: string): string {
  return createHash('sha256').update(`game-wallet:console-password\0${normalizeEmail(email)}\0${password.normalize('NFKC')}`).digest('hex');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
