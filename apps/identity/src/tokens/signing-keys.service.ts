import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { BROADCAST, Jwks, PublicJwk, broadcastChannel } from '@game-wallet/contracts';
import { IntegrityError, open, seal } from '@game-wallet/crypto';
import { newId } from '@game-wallet/database';
import { APP_REDIS } from '@game-wallet/http';
import Redis from 'ioredis';
import { KeyObject, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { SigningKeyEntity } from './entities/signing-key.entity';
import { KEY_ENCRYPTION_KEY } from './key-encryption-key';
import { SigningKeysRepository } from './signing-keys.repository';

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** Keys are reloaded this often even without a rotation broadcast (a missed message heals by itself). */
const RELOAD_INTERVAL_MS = 60_000;

/**
 * The ES256 signing keys: the current one signs, the current and the previous one are published in the JWKS.
 * Private keys are decrypted once into memory (KeyObject) and never leave this service.
 */
@Injectable()
export class SigningKeysService implements OnModuleDestroy {
  private readonly logger = new Logger(SigningKeysService.name);
  private active?: ActiveSigningKey;
  private jwks: Jwks = { keys: [] };
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly keys: SigningKeysRepository,
    @Inject(KEY_ENCRYPTION_KEY) private readonly keyEncryptionKey: Buffer,
    @Inject(APP_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {
    this.timer = setInterval(() => void this.reload().catch((error: unknown) => this.logger.warn(`Reloading signing keys failed: ${String(error)}`)), RELOAD_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The key that signs new tokens (loaded by {@link reload}). */
  current(): ActiveSigningKey {
    if (!this.active) {
      throw new Error('No signing key loaded');
    }
    return this.active;
  }

  publicJwks(): Jwks {
    return this.jwks;
  }

  /** Creates the first key when there is none (called once at start, under the bootstrap lock). */
  async ensureKey(): Promise<void> {
    if ((await this.keys.findPublished()).some((key) => key.status === 'current')) {
      return;
    }
    await this.keys.rotateTo(this.generate());
    this.logger.log('Created the first JWT signing key');
  }

  /** Makes a new current key; the old one stays in the JWKS as previous, so tokens it signed keep verifying. */
  async rotate(): Promise<string> {
    const next = this.generate();
    await this.keys.rotateTo(next);
    await this.reload();
    await this.redis.publish(broadcastChannel(this.config.keyPrefix, BROADCAST.signingKeys), next.kid);
    this.logger.log(`Rotated JWT signing key: ${next.kid} is current`);
    return next.kid;
  }

  async reload(): Promise<void> {
    const published = await this.keys.findPublished();
    const current = published.find((key) => key.status === 'current');
    if (!current) {
      throw new Error('No current signing key');
    }
    if (this.active?.kid !== current.kid) {
      const der = this.unseal(current);
      this.active = { kid: current.kid, privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
    }
    this.jwks = { keys: published.map((key) => key.publicJwk as unknown as PublicJwk) };
  }

  private unseal(key: SigningKeyEntity): Buffer {
    try {
      return open(this.keyEncryptionKey, { iv: key.privateKeyIv, ciphertext: key.privateKeyCiphertext, tag: key.privateKeyTag }, Buffer.from(key.kid));
    } catch (error) {
      if (error instanceof IntegrityError) {
        throw new Error(
          `The current JWT signing key (kid ${key.kid}) does not open with this IDENTITY_KEY_ENCRYPTION_KEY: it was sealed ` +
            'under another key. Start identity with the key it was created with (in development, the generated one in the ' +
            'data folder), or point it at a database of its own.',
        );
      }
      throw error;
    }
  }

  private generate(): SigningKeyEntity {
    const kid = newId();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const sealed = seal(this.keyEncryptionKey, privateKey.export({ format: 'der', type: 'pkcs8' }), Buffer.from(kid));
    return {
      kid,
      status: 'current',
      publicJwk: { kty: 'EC', crv: 'P-256', x: String(jwk.x), y: String(jwk.y), kid, alg: 'ES256', use: 'sig' },
      privateKeyCiphertext: sealed.ciphertext,
      privateKeyIv: sealed.iv,
      privateKeyTag: sealed.tag,
      createdAt: new Date(),
    };
  }
}
