import { Column, Entity, PrimaryColumn } from 'typeorm';

export type SigningKeyStatus = 'current' | 'previous' | 'retired';

/**
 * An ES256 signing key. The private key (PKCS#8 DER) is encrypted at rest with AES-256-GCM under the configured key
 * encryption key, with the kid as associated data; the public JWK is kept in clear for the JWKS.
 */
@Entity({ name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: SigningKeyStatus;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: Record<string, string>;

  @Column({ name: 'private_key_ciphertext', type: 'bytea' })
  privateKeyCiphertext!: Buffer;

  @Column({ name: 'private_key_iv', type: 'bytea' })
  privateKeyIv!: Buffer;

  @Column({ name: 'private_key_tag', type: 'bytea' })
  privateKeyTag!: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
