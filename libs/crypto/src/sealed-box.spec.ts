import { x25519 } from '@noble/curves/ed25519';
import { createPrivateKey, diffieHellman, generateKeyPairSync, randomBytes } from 'node:crypto';
import { IntegrityError } from './aes-gcm';
import { boxKeyPairFromSeed, openSealed, sealTo } from './sealed-box';

describe('sealed boxes (X25519 + HKDF-SHA256 + AES-256-GCM)', () => {
  const keyPair = boxKeyPairFromSeed(randomBytes(32));
  const aad = Buffer.from('admin@example.com');

  it('open with the recipient key and the same associated data', () => {
    const box = sealTo(keyPair.publicKey, Buffer.from('secret digest'), aad);
    expect(openSealed(keyPair, box, aad).toString()).toBe('secret digest');
    expect(box).not.toContain(Buffer.from('secret digest').toString('base64url'));
  });

  it('derive the same key pair from the same seed, and a key pair node:crypto agrees with', () => {
    const seed = randomBytes(32);
    expect(boxKeyPairFromSeed(seed).publicKey).toBe(boxKeyPairFromSeed(seed).publicKey);
    const other = generateKeyPairSync('x25519');
    const ours = boxKeyPairFromSeed(seed);
    const jwk = ours.privateKey.export({ format: 'jwk' });
    expect(Buffer.from(jwk.d as string, 'base64url').equals(seed)).toBe(true);
    expect(Buffer.from(ours.publicKey, 'base64url')).toEqual(Buffer.from(x25519.getPublicKey(seed)));
    expect(diffieHellman({ privateKey: createPrivateKey({ key: jwk, format: 'jwk' }), publicKey: other.publicKey })).toEqual(
      diffieHellman({ privateKey: ours.privateKey, publicKey: other.publicKey }),
    );
  });

  it('refuse another recipient, other associated data, a changed byte and malformed input', () => {
    const box = sealTo(keyPair.publicKey, Buffer.from('secret digest'), aad);
    const stranger = boxKeyPairFromSeed(randomBytes(32));
    expect(() => openSealed(stranger, box, aad)).toThrow(IntegrityError);
    expect(() => openSealed(keyPair, box, Buffer.from('other@example.com'))).toThrow(IntegrityError);
    const parts = box.split('.');
    parts[3] = Buffer.from(Buffer.from(parts[3], 'base64url').map((byte, index) => (index === 0 ? byte ^ 1 : byte))).toString('base64url');
    expect(() => openSealed(keyPair, parts.join('.'), aad)).toThrow(IntegrityError);
    for (const malformed of ['', 'x25519-v1.a.b.c.d', 'x25519-v2' + box.slice(9), box.split('.').slice(0, 4).join('.')]) {
      expect(() => openSealed(keyPair, malformed, aad)).toThrow(IntegrityError);
    }
  });

  it('use a fresh ephemeral key for every message', () => {
    const first = sealTo(keyPair.publicKey, Buffer.from('x'), aad);
    const second = sealTo(keyPair.publicKey, Buffer.from('x'), aad);
    expect(first.split('.')[1]).not.toBe(second.split('.')[1]);
  });
});
