import { z } from 'zod';
import { nameField, withoutControlCharacters } from '../validation';

/** base64url text of at most `max` characters (what WebAuthn's JSON encodings carry). */
const base64url = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** The browser's extension outputs: bounded, and not passed on (no extension is asked for). */
const clientExtensionResults = z
  .record(z.string().max(64), z.unknown())
  .refine((value) => Object.keys(value).length <= 16 && JSON.stringify(value).length <= 4096, 'is too large')
  .transform(() => ({}));

/** A WebAuthn assertion (AuthenticationResponseJSON), as `@simplewebauthn/browser` sends it. */
export const passkeyAssertion = z
  .object({
    id: base64url(1366),
    rawId: base64url(1366),
    type: z.literal('public-key'),
    response: z
      .object({
        clientDataJSON: base64url(8192),
        authenticatorData: base64url(8192),
        signature: base64url(2048),
        userHandle: base64url(256)
          .nullish()
          .transform((value) => value ?? undefined),
      })
      .strict(),
    clientExtensionResults,
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).nullish().transform((value) => value ?? undefined),
  })
  .strict();

/** A WebAuthn attestation (RegistrationResponseJSON), as `@simplewebauthn/browser` sends it. */
export const passkeyAttestation = z
  .object({
    id: base64url(1366),
    rawId: base64url(1366),
    type: z.literal('public-key'),
    response: z
      .object({
        clientDataJSON: base64url(8192),
        attestationObject: base64url(32768),
        authenticatorData: base64url(32768).optional(),
        transports: z.array(z.string().regex(/^[a-z-]{1,32}$/, 'must be a transport name')).max(8).optional(),
        publicKeyAlgorithm: z.number().int().optional(),
        publicKey: base64url(4096).optional(),
      })
      .strict(),
    clientExtensionResults,
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).nullish().transform((value) => value ?? undefined),
  })
  .strict();

const totpCode = z.string().regex(/^\d{6}$/, 'must be the 6 digits your authenticator app shows');
const recoveryCode = z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').refine(...withoutControlCharacters);
const password = z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters');

const exactlyOne =
  (fields: string[]) =>
  (body: Record<string, unknown>): boolean =>
    fields.filter((field) => body[field] !== undefined).length === 1;

/** Step 2 of a sign-in: the challenge and exactly one second factor. */
export const secondFactorBody = z
  .object({ challenge: z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'must be the challenge of the sign-in'), totp: totpCode.optional(), recoveryCode: recoveryCode.optional(), passkey: passkeyAssertion.optional() })
  .strict()
  .refine(exactlyOne(['totp', 'recoveryCode', 'passkey']), 'give exactly one of totp, recoveryCode or passkey');

/** A step-up: exactly one second factor, or the password (only for an operator without a second factor). */
export const stepUpBody = z
  .object({ totp: totpCode.optional(), recoveryCode: recoveryCode.optional(), passkey: passkeyAssertion.optional(), password: password.optional() })
  .strict()
  .refine(exactlyOne(['totp', 'recoveryCode', 'passkey', 'password']), 'give exactly one of totp, recoveryCode, passkey or password');

export const updateAccountBody = z.object({ displayName: nameField }).strict();

export const changePasswordBody = z
  .object({
    currentPassword: password,
    newPassword: z.string().min(12, 'must be at least 12 characters').max(1024, 'must be at most 1024 characters'),
  })
  .strict();

export const confirmTotpBody = z.object({ code: totpCode }).strict();

export const registerPasskeyBody = z.object({ name: nameField, response: passkeyAttestation }).strict();
