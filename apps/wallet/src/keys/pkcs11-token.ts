import { ConfigError } from '@game-wallet/config';
import type { Handle, PKCS11 } from 'pkcs11js';
import { Pkcs11Config } from '../config';

// The PKCS#11 token as the wallet reaches it: the library loaded, a logged-in session on the configured token, a key
// found by its label, everything closed again. Shared by the keyring (pkcs11-keyring.ts) and `hsm-create-key`.

export type Pkcs11js = typeof import('pkcs11js');

/**
 * The module, the token, its PIN or the key is not as configured: the wallet service does not start, with one line
 * naming the variable (never its value).
 */
export class Pkcs11StartError extends ConfigError {
  constructor(problem: string) {
    super([problem]);
    this.name = 'Pkcs11StartError';
  }
}

/** The PKCS#11 library (`pkcs11js`, a native addon), loaded only when the provider is `pkcs11`. */
export async function loadPkcs11js(): Promise<Pkcs11js> {
  try {
    return await import('pkcs11js');
  } catch {
    throw new Pkcs11StartError(
      'WALLET_MASTER_KEY_PROVIDER: pkcs11 needs the pkcs11js package, which did not install (it builds with python3, make and a C++ compiler)',
    );
  }
}

export const codeOf = (error: unknown): number | undefined => (typeof (error as { code?: unknown })?.code === 'number' ? (error as { code: number }).code : undefined);

/** An open, logged-in session on the configured token. */
export interface TokenSession {
  pkcs11: PKCS11;
  slot: Handle;
  session: Handle;
}

/**
 * Loads the module, finds the token by its label, opens a session and logs in as the user; each failure is a
 * {@link Pkcs11StartError} naming the variable to look at (never its value).
 */
export function openTokenSession(lib: Pkcs11js, config: Pkcs11Config, readWrite = false): TokenSession {
  const pkcs11 = new lib.PKCS11();
  try {
    pkcs11.load(config.module);
  } catch {
    throw new Pkcs11StartError('PKCS11_MODULE: the PKCS#11 module could not be loaded (no such file, or not a PKCS#11 library)');
  }
  try {
    // Calls run on several threads at once (each on its own session): the library must lock for itself.
    pkcs11.C_Initialize({ flags: lib.CKF_OS_LOCKING_OK });
  } catch (error) {
    if (codeOf(error) !== lib.CKR_CRYPTOKI_ALREADY_INITIALIZED) {
      closeToken(pkcs11);
      throw new Pkcs11StartError(`PKCS11_MODULE: the PKCS#11 module failed to initialise (${codeName(error)})`);
    }
  }
  let slot: Handle | undefined;
  try {
    slot = pkcs11.C_GetSlotList(true).find((candidate) => pkcs11.C_GetTokenInfo(candidate).label.trim() === config.tokenLabel);
    if (!slot) {
      throw new Pkcs11StartError('PKCS11_TOKEN_LABEL: no token with this label is present');
    }
    const session = pkcs11.C_OpenSession(slot, lib.CKF_SERIAL_SESSION | (readWrite ? lib.CKF_RW_SESSION : 0));
    login(lib, pkcs11, session, config.pin);
    return { pkcs11, slot, session };
  } catch (error) {
    closeToken(pkcs11, slot);
    throw error instanceof Pkcs11StartError ? error : new Pkcs11StartError(`PKCS11_TOKEN_LABEL: the token did not answer (${codeName(error)})`);
  }
}

function login(lib: Pkcs11js, pkcs11: PKCS11, session: Handle, pin: string): void {
  try {
    pkcs11.C_Login(session, lib.CKU_USER, pin);
  } catch (error) {
    const code = codeOf(error);
    if (code === lib.CKR_USER_ALREADY_LOGGED_IN) {
      return;
    }
    if (code === lib.CKR_PIN_LOCKED) {
      throw new Pkcs11StartError('PKCS11_PIN: the token has locked this PIN');
    }
    if (code === lib.CKR_PIN_INCORRECT || code === lib.CKR_PIN_INVALID || code === lib.CKR_PIN_LEN_RANGE) {
      throw new Pkcs11StartError('PKCS11_PIN: the token refused the PIN');
    }
    throw new Pkcs11StartError(`PKCS11_PIN: the token refused the login (${codeName(error)})`);
  }
}

/** The secret key object with this label, if the token has one. */
export function findSecretKey(lib: Pkcs11js, pkcs11: PKCS11, session: Handle, label: string): Handle | undefined {
  pkcs11.C_FindObjectsInit(session, [
    { type: lib.CKA_CLASS, value: lib.CKO_SECRET_KEY },
    { type: lib.CKA_LABEL, value: label },
  ]);
  try {
    return pkcs11.C_FindObjects(session) ?? undefined;
  } finally {
    pkcs11.C_FindObjectsFinal(session);
  }
}

/** Closes every session and unloads the library; what is already gone (a failed token) is skipped. */
export function closeToken(pkcs11: PKCS11, slot?: Handle): void {
  const steps = [...(slot === undefined ? [] : [() => pkcs11.C_CloseAllSessions(slot)]), () => pkcs11.C_Finalize(), () => pkcs11.close()];
  for (const step of steps) {
    try {
      step();
    } catch {
      // already gone: the token or the library is what failed
    }
  }
}

/** A CK_ULONG attribute, as the platform's C library stores it (8 bytes on 64-bit Linux). */
export function ulong(value: Buffer): number {
  return value.length === 8 ? Number(value.readBigUInt64LE(0)) : value.readUInt32LE(0);
}

export function codeName(error: unknown): string {
  return error instanceof Error ? error.message.split(':')[0] : 'unknown error';
}
