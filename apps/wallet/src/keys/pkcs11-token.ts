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

/**
 * The secret key objects with this label: none, one, or two when the label is not unique (two are enough to tell; a
 * token lets several objects share a label, and which one a search finds first is up to the token).
 */
export function findSecretKeys(lib: Pkcs11js, pkcs11: PKCS11, session: Handle, label: string): Handle[] {
  pkcs11.C_FindObjectsInit(session, [
    { type: lib.CKA_CLASS, value: lib.CKO_SECRET_KEY },
    { type: lib.CKA_LABEL, value: label },
  ]);
  try {
    // A token may answer fewer handles than asked for while more match: ask until two are found or none is left.
    const found: Handle[] = [];
    while (found.length < 2) {
      const more = pkcs11.C_FindObjects(session, 2 - found.length);
      if (more.length === 0) {
        break;
      }
      found.push(...more);
    }
    return found;
  } finally {
    pkcs11.C_FindObjectsFinal(session);
  }
}

/** The token holds more than one secret key with a label: which one is meant cannot be told. */
export class DuplicateKeyLabelError extends Error {
  constructor(readonly label: string) {
    super(`The token has more than one secret key labelled "${label}"`);
    this.name = 'DuplicateKeyLabelError';
  }
}

/** The secret key with this label, if the token has one; a label that names several keys is a {@link DuplicateKeyLabelError}. */
export function findSecretKey(lib: Pkcs11js, pkcs11: PKCS11, session: Handle, label: string): Handle | undefined {
  const keys = findSecretKeys(lib, pkcs11, session, label);
  if (keys.length > 1) {
    throw new DuplicateKeyLabelError(label);
  }
  return keys[0];
}

export type MasterKeyProblem = 'missing' | 'duplicate' | 'not-aes-256' | 'can-leave';

/** The key with a label (when exactly one has it), and what makes it unfit to be a master key, if anything. */
export type MasterKeyInspection = { key: Handle; problem?: 'not-aes-256' | 'can-leave' } | { key?: undefined; problem: 'missing' | 'duplicate' };

/**
 * Checks the secret key labelled `label` as a master key: exactly one key with the label, AES-256, sensitive and never
 * extractable (so its value never leaves the token). Every key the wallet uses passes this, the current one and the
 * older ones wallets are still under alike.
 */
export function inspectMasterKey(lib: Pkcs11js, pkcs11: PKCS11, session: Handle, label: string): MasterKeyInspection {
  const keys = findSecretKeys(lib, pkcs11, session, label);
  if (keys.length !== 1) {
    return { problem: keys.length === 0 ? 'missing' : 'duplicate' };
  }
  const [key] = keys;
  const [keyType, length, sensitive, extractable] = pkcs11
    .C_GetAttributeValue(session, key, [{ type: lib.CKA_KEY_TYPE }, { type: lib.CKA_VALUE_LEN }, { type: lib.CKA_SENSITIVE }, { type: lib.CKA_EXTRACTABLE }])
    .map((attribute) => attribute.value as Buffer);
  if (ulong(keyType) !== lib.CKK_AES || ulong(length) !== 32) {
    return { key, problem: 'not-aes-256' };
  }
  if (sensitive[0] !== 1 || extractable[0] !== 0) {
    return { key, problem: 'can-leave' };
  }
  return { key };
}

/** What each problem is, said of "the key with this label" (the caller names the variable or the key id first). */
export const MASTER_KEY_PROBLEMS: Record<MasterKeyProblem, string> = {
  missing: 'the token has no secret key with this label',
  duplicate: 'the token has more than one secret key with this label, so which one is meant cannot be told (give the others another label, or delete them, with the HSM\'s tools)',
  'not-aes-256': 'the key with this label is not an AES-256 key',
  'can-leave': 'the key with this label can leave the token (extractable or not sensitive), which a master key must not',
};

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
