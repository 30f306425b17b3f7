import { generateKeyPairSync } from 'node:crypto';
import { jwkThumbprint, parseSigningPublicKey } from './request-signing-key';

describe('parseSigningPublicKey', () => {
  const ed = generateKeyPairSync('ed25519');
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('reads an Ed25519 key from a PEM and from a JWK, with the same RFC 7638 thumbprint', () => {
    const fromPem = parseSigningPublicKey(ed.publicKey.export({ format: 'pem', type: 'spki' }).toString());
    const fromJwk = parseSigningPublicKey(ed.publicKey.export({ format: 'jwk' }) as Record<string, unknown>);
    expect(fromPem).toEqual(fromJwk);
    expect(fromPem.algorithm).toBe('ed25519');
    expect(fromPem.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('reads a P-256 key and names it ecdsa-p256-sha256', () => {
    const parsed = parseSigningPublicKey(p256.publicKey.export({ format: 'pem', type: 'spki' }).toString());
    expect(parsed.algorithm).toBe('ecdsa-p256-sha256');
    expect(parsed.publicKey).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) });
  });

  it('computes the thumbprint of RFC 7638 §3.1 for its example key', () => {
    // RFC 7638's example is an RSA key; its member ordering rule is what is checked here on an OKP key of RFC 8037 A.3.
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it.each([
    ['a private key PEM', () => ed.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), 'private key'],
    ['a private JWK', () => ed.privateKey.export({ format: 'jwk' }) as Record<string, unknown>, 'private key'],
    ['an RSA key', () => generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }).toString(), 'Ed25519 or a P-256'],
    ['a P-384 key', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' }) as Record<string, unknown>, 'Ed25519'],
    ['garbage', () => 'not a key', 'PEM public key'],
    ['a broken PEM', () => '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', 'could not be read'],
  ])('refuses %s with 400 VALIDATION_FAILED saying why', (_what, input, says) => {
    expect(() => parseSigningPublicKey(input())).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringContaining(says) }));
  });

  it('never echoes a private key it refuses', () => {
    const pem = ed.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    try {
      parseSigningPublicKey(pem);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(pem.split('\n')[1]);
    }
  });
});
