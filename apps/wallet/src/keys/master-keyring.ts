import { AppError } from '@game-wallet/contracts';
import { Sealed, open, seal } from '@game-wallet/crypto';

/**
 * The master keys that wrap wallets' data keys (AES-256-GCM, the associated data binding each wrap to its wallet and
 * key id). A key is named by the id stored beside each wallet (`master_key_id`).
 */
export interface MasterKeyring {
  /** The key new wallets, and `rewrap`, wrap under. */
  readonly currentId: string;
  /** Whether this keyring holds the key `id` (it may still fail to reach it). */
  holds(id: string): boolean;
  wrap(id: string, dataKey: Buffer, aad: Buffer): Promise<Sealed>;
  /** Throws `IntegrityError` when the wrap does not authenticate under this key and `aad`. */
  unwrap(id: string, wrapped: Sealed, aad: Buffer): Promise<Buffer>;
  /** The dependency `/v1/health` reports (`hsm`), for a keyring that has one. */
  probe?: { name: string; check: () => Promise<unknown> };
  close(): Promise<void>;
}

/** A wallet names a master key this service does not have (removed from the configuration too early, say). */
export class UnknownMasterKeyError extends Error {
  constructor(id: string) {
    super(`Master key "${id}" is not configured`);
    this.name = 'UnknownMasterKeyError';
  }
}

/** The HSM did not answer or refused to work: signing and creation answer 503 until it is back. */
export const hsmUnavailable = (): AppError => new AppError('SERVICE_UNAVAILABLE', 'The key store (HSM) is unavailable', 2);

/** Master keys held in process memory, from `WALLET_MASTER_KEYS` (or the generated development key). */
export class EnvironmentKeyring implements MasterKeyring {
  constructor(
    private readonly keys: ReadonlyMap<string, Buffer>,
    readonly currentId: string,
  ) {}

  holds(id: string): boolean {
    return this.keys.has(id);
  }

  async wrap(id: string, dataKey: Buffer, aad: Buffer): Promise<Sealed> {
    return seal(this.key(id), dataKey, aad);
  }

  async unwrap(id: string, wrapped: Sealed, aad: Buffer): Promise<Buffer> {
    return open(this.key(id), wrapped, aad);
  }

  /** Nothing to release: the keys live as long as the process. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) {
      throw new UnknownMasterKeyError(id);
    }
    return key;
  }
}

/**
 * An HSM's keys, and the environment's keys that still open wallets not yet moved into it: each wallet's key id says
 * which holds its key. New wallets are wrapped by the first (the HSM's current key).
 */
export class CombinedKeyring implements MasterKeyring {
  readonly currentId: string;
  readonly probe?: MasterKeyring['probe'];

  constructor(private readonly keyrings: MasterKeyring[]) {
    this.currentId = keyrings[0].currentId;
    this.probe = keyrings.find((keyring) => keyring.probe)?.probe;
  }

  holds(id: string): boolean {
    return this.keyrings.some((keyring) => keyring.holds(id));
  }

  wrap(id: string, dataKey: Buffer, aad: Buffer): Promise<Sealed> {
    return this.holder(id).wrap(id, dataKey, aad);
  }

  unwrap(id: string, wrapped: Sealed, aad: Buffer): Promise<Buffer> {
    return this.holder(id).unwrap(id, wrapped, aad);
  }

  async close(): Promise<void> {
    await Promise.all(this.keyrings.map((keyring) => keyring.close()));
  }

  private holder(id: string): MasterKeyring {
    const keyring = this.keyrings.find((candidate) => candidate.holds(id));
    if (!keyring) {
      throw new UnknownMasterKeyError(id);
    }
    return keyring;
  }
}
