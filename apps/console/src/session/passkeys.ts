import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  WebAuthnError,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

/**
 * The browser's passkey ceremonies, with the options and answers as the platform sends and reads them (WebAuthn's
 * JSON shapes, checked by identity).
 */
export async function passkeyAssertion(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return response as unknown as Record<string, unknown>;
}

export async function passkeyRegistration(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return response as unknown as Record<string, unknown>;
}

/** Why a passkey ceremony did not finish, in words (the browser's own errors say little to an operator). */
export function passkeyProblem(error: unknown): string {
  const name = error instanceof WebAuthnError ? (error.cause as Error | undefined)?.name : error instanceof Error ? error.name : undefined;
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return 'The passkey was not used: it was cancelled or took too long. Try again.';
  }
  if (name === 'InvalidStateError') {
    return 'This device already holds a passkey for your account.';
  }
  if (name === 'NotSupportedError' || (error instanceof Error && /not support/i.test(error.message))) {
    return 'This browser cannot use passkeys.';
  }
  return error instanceof Error && error.message !== '' ? `The passkey could not be used: ${error.message}` : 'The passkey could not be used.';
}
