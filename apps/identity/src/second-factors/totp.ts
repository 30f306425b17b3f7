import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps use it: HMAC-SHA1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code of the step before or after the current one is accepted too (clocks drift, people type slowly). */
const WINDOW = 1;

/** A new TOTP secret: 160 random bits (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` URI a QR code carries. */
export function totpUri(secretBase32: string, issuer: string, account: string): string {
  return totpOf(secretBase32, issuer, account).toString();
}

/**
 * The time step of `code` for the secret at `now` (within ±1 step), or null when it does not match. The caller
 * accepts it only when the step is later than the last step it accepted, so that no code is accepted twice.
 */
export function matchTotp(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) {
    return null;
  }
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}

function totpOf(secretBase32: string, issuer = '', label = ''): TOTP {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS });
}
