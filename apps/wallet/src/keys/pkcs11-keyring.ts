import { Logger } from '@nestjs/common';
import { IntegrityError, Sealed } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';
import type { Handle, PKCS11 } from 'pkcs11js';
import { Pkcs11Config } from '../config';
import { MASTER_KEY_PROBLEMS, MasterKeyProblem, Pkcs11StartError, Pkcs11js, closeToken, codeOf, inspectMasterKey, loadPkcs11js, openTokenSession } from './pkcs11-token';
import { MasterKeyring, UnknownMasterKeyError, hsmUnavailable } from './master-keyring';

/** Stored key ids of the HSM's keys: `pkcs11:<label>` (an environment key's id has no colon). */
export const PKCS11_KEY_PREFIX = 'pkcs11:';
/** Labels fit the stored id (64 characters with the prefix). */
export const PKCS11_LABEL_MAX = 64 - PKCS11_KEY_PREFIX.length;

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Sessions open at most; each serves one operation at a time (a PKCS#11 session is not safe to share across threads). */
const MAX_SESSIONS = 8;
/** An HSM call that has not answered by then counts as the HSM being away. */
const CALL_TIMEOUT_MS = 5_000;
/** After a failed reconnection, calls fail at once for this long instead of each trying again. */
const RETRY_AFTER_MS = 1_000;

export interface Pkcs11KeyringOptions {
  /**
   * Labels of the token's other keys that wallets are still under (earlier current keys): checked at start like the
   * current one, so that no key the service unwraps with escapes the checks. Keys not named here are found, and checked,
   * when a wallet under them is first opened.
   */
  olderLabels?: Iterable<string>;
  /**
   * `rewrap` only: an older key that fails the checks (AES-128, extractable, not sensitive) still unwraps, with a
   * warning, so that its wallets can be moved onto the current key, the way out of such a key. The current key is
   * checked whatever this says, and the service leaves it off: it refuses to start, or to use such a key.
   */
  useWeakOlderKeys?: boolean;
}

/** A wallet's key is on the token but is not fit to be a master key (found after start): it is not used. */
export class MasterKeyRefusedError extends Error {
  constructor(id: string, problem: MasterKeyProblem) {
    super(`Master key "${id}" is refused: ${MASTER_KEY_PROBLEMS[problem]}`);
    this.name = 'MasterKeyRefusedError';
  }
}

interface Connection {
  pkcs11: PKCS11;
  slot: Handle;
  idle: Handle[];
  open: number;
  /** Object handles of the keys found so far, by label. */
  keys: Map<string, Handle>;
  /** Calls waiting for a session while all are busy. */
  waiting: { resolve: (session: Handle) => void; reject: (error: Error) => void }[];
}

/**
 * Master keys inside a PKCS#11 token (an HSM, or SoftHSM2 for trials): each wallet's data key is wrapped and unwrapped
 * by AES-256-GCM **in the token**, under a sensitive, non-extractable AES key found by its label. The master key never
 * enters this process; the data key does, for the one operation that needs it.
 *
 * Calls run off the event loop (the addon's async calls, on libuv's threads), each on a session of its own from a pool;
 * with `calls: 'sync'` (`PKCS11_CALLS`, for a token whose calls take microseconds) the encryption or decryption itself
 * runs on the event loop, which saves the hop to a thread and back (SoftHSM2: about 20 µs a call against 60).
 * A call that fails for any reason but a bad tag, or does not answer within 5 s, drops the connection: the call answers
 * 503 and the next one opens the library again (initialise, find the token, log in, find the keys), so a token reset,
 * a re-inserted token or an HSM back from an outage is picked up without a restart.
 */
export class Pkcs11Keyring implements MasterKeyring {
  readonly currentId: string;
  readonly probe = { name: 'hsm', check: (): Promise<unknown> => this.check() };
  private connection?: Connection;
  private connecting?: Promise<Connection>;
  private failedAt = 0;
  private inFlight = 0;
  private readonly drained: (() => void)[] = [];
  private readonly logger = new Logger('Pkcs11Keyring');

  private constructor(
    private readonly lib: Pkcs11js,
    private readonly config: Pkcs11Config,
    readonly currentLabel: string,
    private readonly useWeakOlderKeys: boolean,
  ) {
    this.currentId = `${PKCS11_KEY_PREFIX}${currentLabel}`;
  }

  /**
   * Connects and checks the current key and `olderLabels`; a token, PIN or key that is not as configured is a
   * {@link Pkcs11StartError}.
   */
  static async open(config: Pkcs11Config, currentLabel: string, options: Pkcs11KeyringOptions = {}): Promise<Pkcs11Keyring> {
    const keyring = new Pkcs11Keyring(await loadPkcs11js(), config, currentLabel, options.useWeakOlderKeys ?? false);
    const connection = keyring.connect();
    try {
      const session = connection.idle[0];
      connection.keys.set(currentLabel, keyring.currentKey(connection.pkcs11, session));
      for (const label of new Set(options.olderLabels ?? [])) {
        if (label !== currentLabel) {
          keyring.checkOlderKey(connection, session, label);
        }
      }
    } catch (error) {
      keyring.disconnect(connection);
      throw error;
    }
    keyring.connection = connection;
    return keyring;
  }

  holds(id: string): boolean {
    return id.startsWith(PKCS11_KEY_PREFIX);
  }

  wrap(id: string, dataKey: Buffer, aad: Buffer): Promise<Sealed> {
    const iv = randomBytes(IV_BYTES);
    return this.call(id, async (pkcs11, session, key) => {
      pkcs11.C_EncryptInit(session, this.gcm(iv, aad), key);
      const into = Buffer.alloc(dataKey.length + TAG_BYTES);
      const out = this.config.calls === 'sync' ? pkcs11.C_Encrypt(session, dataKey, into) : await pkcs11.C_EncryptAsync(session, dataKey, into);
      return { iv, ciphertext: Buffer.from(out.subarray(0, out.length - TAG_BYTES)), tag: Buffer.from(out.subarray(out.length - TAG_BYTES)) };
    });
  }

  async unwrap(id: string, wrapped: Sealed, aad: Buffer): Promise<Buffer> {
    if (wrapped.iv.length !== IV_BYTES || wrapped.tag.length !== TAG_BYTES) {
      throw new IntegrityError();
    }
    return this.call(id, async (pkcs11, session, key) => {
      pkcs11.C_DecryptInit(session, this.gcm(wrapped.iv, aad), key);
      const input = Buffer.concat([wrapped.ciphertext, wrapped.tag]);
      // The token writes the data key into this buffer (pkcs11js answers a view of it): the caller gets a copy of its
      // own to zero, and this one is zeroed here, whatever happens, so a data key outlives no call in it.
      const output = Buffer.alloc(input.length);
      try {
        return Buffer.from(this.config.calls === 'sync' ? pkcs11.C_Decrypt(session, input, output) : await pkcs11.C_DecryptAsync(session, input, output));
      } catch (error) {
        // A tag that does not verify is CKR_ENCRYPTED_DATA_INVALID by the standard; some tokens (SoftHSM2) answer
        // CKR_GENERAL_ERROR. Either is a bad wrap, not a failing token, when the same key still encrypts.
        const code = codeOf(error);
        if (code === this.lib.CKR_ENCRYPTED_DATA_INVALID || code === this.lib.CKR_ENCRYPTED_DATA_LEN_RANGE || (code === this.lib.CKR_GENERAL_ERROR && (await this.stillWorks(pkcs11, session, key)))) {
          throw new IntegrityError();
        }
        throw error;
      } finally {
        output.fill(0);
      }
    }, (late) => late.fill(0));
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (connection) {
      await this.drain();
      this.disconnect(connection);
    }
  }

  /** `/v1/health`: the current key encrypts in the token (and a lost connection is tried again). */
  private check(): Promise<unknown> {
    return this.wrap(this.currentId, Buffer.alloc(32), Buffer.from('health'));
  }

  private gcm(iv: Buffer, aad: Buffer) {
    return { mechanism: this.lib.CKM_AES_GCM, parameter: { type: this.lib.CK_PARAMS_GCM, iv, ivBits: IV_BYTES * 8, aad, tagBits: TAG_BYTES * 8 } };
  }

  private async stillWorks(pkcs11: PKCS11, session: Handle, key: Handle): Promise<boolean> {
    try {
      pkcs11.C_EncryptInit(session, this.gcm(randomBytes(IV_BYTES), Buffer.alloc(0)), key);
      await pkcs11.C_EncryptAsync(session, Buffer.alloc(16), Buffer.alloc(32));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Runs one token operation with key `id` on a session of its own. Any failure of the token (an error, or no answer
   * within 5 s) drops the connection and answers 503; a bad tag passes through as `IntegrityError`.
   */
  private async call<T>(id: string, work: (pkcs11: PKCS11, session: Handle, key: Handle) => Promise<T>, discard?: (late: T) => void): Promise<T> {
    if (!this.holds(id)) {
      throw new UnknownMasterKeyError(id);
    }
    const connection = await this.connected();
    const session = await this.acquire(connection);
    let healthy = true;
    let running: Promise<T> | undefined;
    try {
      const key = this.keyHandle(connection, session, id.slice(PKCS11_KEY_PREFIX.length));
      running = this.tracked(work(connection.pkcs11, session, key));
      return await withTimeout(running, CALL_TIMEOUT_MS);
    } catch (error) {
      // What a call brings back after its caller stopped waiting (a data key) reaches no one, who would zero it.
      running?.then(discard, () => undefined).catch(() => undefined);
      if (error instanceof IntegrityError || error instanceof UnknownMasterKeyError || error instanceof MasterKeyRefusedError) {
        throw error;
      }
      healthy = false;
      this.fail(connection, error);
      throw hsmUnavailable();
    } finally {
      if (healthy && this.connection === connection) {
        this.release(connection, session);
      }
    }
  }

  /** Counts a call into the library until it returns, even after its caller stopped waiting (a timeout). */
  private tracked<T>(work: Promise<T>): Promise<T> {
    this.inFlight += 1;
    const settled = (): void => {
      this.inFlight -= 1;
      if (this.inFlight === 0) {
        this.drained.splice(0).forEach((resolve) => resolve());
      }
    };
    work.then(settled, settled);
    return work;
  }

  /**
   * The key labelled `label`, found and checked the first time a connection uses it: a key that was not on the token at
   * start (a later rewrap's key, one restored since), and every key again after a reconnection.
   */
  private keyHandle(connection: Connection, session: Handle, label: string): Handle {
    const known = connection.keys.get(label);
    if (known) {
      return known;
    }
    const { key, problem } = this.usableKey(connection.pkcs11, session, label);
    if (problem !== undefined) {
      const id = `${PKCS11_KEY_PREFIX}${label}`;
      throw problem === 'missing' ? new UnknownMasterKeyError(id) : new MasterKeyRefusedError(id, problem);
    }
    connection.keys.set(label, key);
    return key;
  }

  /**
   * The key labelled `label` if this keyring may use it, else why not: missing, or a check it fails. With
   * `useWeakOlderKeys` (rewrap) an older key that is on the token alone but weak is used all the same, with a warning.
   */
  private usableKey(pkcs11: PKCS11, session: Handle, label: string): { key: Handle; problem?: undefined } | { key?: undefined; problem: MasterKeyProblem } {
    const { key, problem } = inspectMasterKey(this.lib, pkcs11, session, label);
    if (problem === undefined) {
      return { key };
    }
    if (key !== undefined && this.useWeakOlderKeys && label !== this.currentLabel) {
      this.logger.warn(`Opening wallets under master key "${PKCS11_KEY_PREFIX}${label}" to move them to "${this.currentId}": ${MASTER_KEY_PROBLEMS[problem]}`);
      return { key };
    }
    return { problem };
  }

  private async connected(): Promise<Connection> {
    if (this.connection) {
      return this.connection;
    }
    if (Date.now() - this.failedAt < RETRY_AFTER_MS) {
      throw hsmUnavailable();
    }
    this.connecting ??= (async () => {
      await this.drain();
      try {
        const connection = this.connect();
        this.connection = connection;
        this.logger.log(`Connected to the HSM token again`);
        return connection;
      } catch (error) {
        this.failedAt = Date.now();
        this.logger.warn(`The HSM token is still unavailable: ${error instanceof Error ? error.message : String(error)}`);
        throw hsmUnavailable();
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  /** Drops a connection that failed; the next call connects again. */
  private fail(connection: Connection, error: unknown): void {
    if (this.connection !== connection) {
      return;
    }
    this.connection = undefined;
    // Calls queued for one of its sessions would wait forever: they answer 503 now, like the call that failed.
    connection.waiting.splice(0).forEach((waiter) => waiter.reject(hsmUnavailable()));
    this.logger.error(`HSM call failed (${error instanceof Error ? error.message : String(error)}); reconnecting on the next call`);
    void this.drain().then(() => this.disconnect(connection));
  }

  /**
   * Waits until no call is running in the library (before it is finalised and initialised again), or 10 s: a call
   * that never returns must not keep the service from reconnecting.
   */
  private drain(): Promise<void> {
    if (this.inFlight === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      this.drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private acquire(connection: Connection): Promise<Handle> {
    const idle = connection.idle.pop();
    if (idle) {
      return Promise.resolve(idle);
    }
    if (connection.open < MAX_SESSIONS) {
      try {
        connection.open += 1;
        return Promise.resolve(connection.pkcs11.C_OpenSession(connection.slot, this.lib.CKF_SERIAL_SESSION));
      } catch (error) {
        connection.open -= 1;
        this.fail(connection, error);
        return Promise.reject(hsmUnavailable());
      }
    }
    return new Promise((resolve, reject) => connection.waiting.push({ resolve, reject }));
  }

  private release(connection: Connection, session: Handle): void {
    const next = connection.waiting.shift();
    if (next) {
      next.resolve(session);
    } else {
      connection.idle.push(session);
    }
  }

  private connect(): Connection {
    const { pkcs11, slot, session } = openTokenSession(this.lib, this.config);
    return { pkcs11, slot, idle: [session], open: 1, keys: new Map(), waiting: [] };
  }

  /**
   * The current key: the one secret key with its label, AES-256, sensitive and never extractable, or the service does
   * not start (the line names the variable, not the label: a configured value is never echoed).
   */
  private currentKey(pkcs11: PKCS11, session: Handle): Handle {
    const { key, problem } = this.usableKey(pkcs11, session, this.currentLabel);
    if (problem !== undefined) {
      const hint = problem === 'missing' ? ' (npm run hsm:create-key makes one)' : '';
      throw new Pkcs11StartError(`WALLET_MASTER_KEY_ID: ${MASTER_KEY_PROBLEMS[problem]}${hint}`);
    }
    return key;
  }

  /**
   * An older key wallets are still under passes the same checks as the current one, or the service does not start (the
   * line names the key as wallets store it: it comes from the database, not from the configuration). One that is not
   * on the token is only a warning: its wallets cannot sign until it is back, as with a removed environment key.
   */
  private checkOlderKey(connection: Connection, session: Handle, label: string): void {
    const id = `${PKCS11_KEY_PREFIX}${label}`;
    const { key, problem } = this.usableKey(connection.pkcs11, session, label);
    if (problem === 'missing') {
      this.logger.warn(`Master key "${id}", which wallets are still under, is not on the token: those wallets cannot sign until it is back`);
      return;
    }
    if (problem !== undefined) {
      const remedy = problem === 'duplicate' ? '' : '; `npm run rewrap` moves its wallets to WALLET_MASTER_KEY_ID';
      throw new Pkcs11StartError(`master key ${id} (an older key, wallets are still under it): ${MASTER_KEY_PROBLEMS[problem]}${remedy}`);
    }
    connection.keys.set(label, key);
  }

  private disconnect(connection: Connection): void {
    closeToken(connection.pkcs11, connection.slot);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
