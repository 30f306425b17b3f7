import { KeyObject, createHash, createPublicKey, generateKeyPairSync, verify, webcrypto } from 'node:crypto';
import { RequestSigningPublicJwk, requestSignerFromCryptoKey, requestSignerFromPem, requestSigningKeyId } from './request-signer';

/** RFC 7638 computed here, apart from the SDK: SHA-256 of the required members, sorted, without whitespace. */
function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = jwk.kty === 'OKP' ? `{"crv":"${jwk.crv}","kty":"OKP","x":"${jwk.x}"}` : `{"crv":"${jwk.crv}","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** Verifies as the platform would: Ed25519, or ECDSA P-256 over SHA-256 with r‖s. */
function verifies(publicKey: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  return publicKey.asymmetricKeyType === 'ed25519' ? verify(null, data, publicKey, signature) : verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
}

const keyTypes = [
  ['Ed25519', 'ed25519', () => generateKeyPairSync('ed25519')],
  ['P-256', 'ecdsa-p256-sha256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' })],
] as const;

const pem = (privateKey: KeyObject, type: 'pkcs8' | 'sec1' | 'pkcs1' = 'pkcs8') => privateKey.export({ type, format: 'pem' }) as string;
const data = new TextEncoder().encode('"@method": POST');

describe(requestSigningKeyId.name, () => {
  it('is the RFC 8037 A.3 thumbprint of its Ed25519 example key', async () => {
    await expect(requestSigningKeyId({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).resolves.toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it.each(keyTypes)('is the RFC 7638 thumbprint of a %s key, whatever other members the JWK has', async (_, _algorithm, generate) => {
    const { publicKey } = generate();
    const jwk = publicKey.export({ format: 'jwk' }) as RequestSigningPublicJwk;
    await expect(requestSigningKeyId(jwk)).resolves.toBe(thumbprint(publicKey));
    const withOtherMembers = { ...jwk, kid: 'mine', use: 'sig', alg: 'EdDSA' };
    await expect(requestSigningKeyId(withOtherMembers)).resolves.toBe(thumbprint(publicKey));
  });

  it.each([
    ['an RSA key', { kty: 'RSA', n: 'AQAB', e: 'AQAB' }],
    ['a P-384 key', { kty: 'EC', crv: 'P-384', x: 'A'.repeat(64), y: 'A'.repeat(64) }],
    ['an OKP key of another curve', { kty: 'OKP', crv: 'X25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }],
    ['a P-256 key without y', { kty: 'EC', crv: 'P-256', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }],
    ['a coordinate of 31 bytes', { kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(41) }],
    ['a coordinate that is not base64url', { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo' }],
    ['null', null],
  ])('refuses %s with a TypeError', async (_, jwk) => {
    await expect(requestSigningKeyId(jwk as unknown as RequestSigningPublicJwk)).rejects.toThrow(TypeError);
  });
});

describe(requestSignerFromPem.name, () => {
  it.each(keyTypes)('signs with a PKCS#8 %s key, what the public key verifies, and knows its public JWK and keyid', async (_, algorithm, generate) => {
    const { privateKey, publicKey } = generate();
    const signer = await requestSignerFromPem(pem(privateKey));
    expect(signer.algorithm).toBe(algorithm);
    expect(signer.keyId).toBe(thumbprint(publicKey));
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
    expect(signer.publicJwk).toEqual(kty === 'OKP' ? { kty, crv, x } : { kty, crv, x, y });
    const signature = await signer.sign(data);
    expect(signature).toHaveLength(64);
    expect(verifies(publicKey, data, signature)).toBe(true);
    expect(verifies(publicKey, new TextEncoder().encode('"@method": GET'), signature)).toBe(false);
  });

  it('takes the PRIVATE KEY block among others, with CRLF line ends', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const certificateLike = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const signer = await requestSignerFromPem(`${certificateLike}${pem(privateKey).replace(/\n/g, '\r\n')}`);
    expect(signer.keyId).toBe(thumbprint(publicKey));
  });

  it.each([
    ['an RSA key in PKCS#8', () => pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey), 'privateKeyPem must be the PKCS#8 PEM of an Ed25519 or a P-256 private key'],
    ['a P-384 key', () => pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey), 'privateKeyPem must be the PKCS#8 PEM of an Ed25519 or a P-256 private key'],
    ['an X25519 key', () => pem(generateKeyPairSync('x25519').privateKey), 'privateKeyPem must be the PKCS#8 PEM of an Ed25519 or a P-256 private key'],
    ['an RSA key in PKCS#1', () => pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'pkcs1'), 'privateKeyPem is an RSA key: signed requests take an Ed25519 or a P-256 key'],
    ['a SEC1 EC key', () => pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'sec1'), 'privateKeyPem is a SEC1 EC key'],
    [
      'an encrypted key',
      () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }) as string,
      'privateKeyPem is encrypted',
    ],
    ['a public key', () => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string, 'privateKeyPem holds a PUBLIC KEY'],
    ['text without PEM', () => 'gk_not-a-key', 'privateKeyPem must be a PKCS#8 PEM private key'],
    ['a block that is not base64', () => '-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----', 'the PRIVATE KEY block is not base64'],
    ['a block without its end', () => '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n', 'the PRIVATE KEY block has no end'],
  ])('refuses %s with a TypeError that says so', async (_, make, message) => {
    const refusal = requestSignerFromPem(make());
    await expect(refusal).rejects.toThrow(TypeError);
    await expect(refusal).rejects.toThrow(message);
  });
});

describe(requestSignerFromCryptoKey.name, () => {
  const generate = {
    ed25519: (extractable: boolean) => webcrypto.subtle.generateKey({ name: 'Ed25519' }, extractable, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>,
    'ecdsa-p256-sha256': (extractable: boolean) => webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, extractable, ['sign', 'verify']),
  };
  const nodeKey = (key: webcrypto.CryptoKey) => KeyObject.from(key);

  it.each(Object.entries(generate))('signs with a non-extractable %s private key and its public key', async (algorithm, make) => {
    const pair = await make(false);
    const signer = await requestSignerFromCryptoKey(pair.privateKey, pair.publicKey);
    const publicKey = nodeKey(pair.publicKey);
    expect(signer).toMatchObject({ algorithm, keyId: thumbprint(publicKey) });
    expect(verifies(publicKey, data, await signer.sign(data))).toBe(true);
  });

  it.each(Object.entries(generate))('reads the public key of an extractable %s private key', async (algorithm, make) => {
    const pair = await make(true);
    const signer = await requestSignerFromCryptoKey(pair.privateKey);
    expect(signer).toMatchObject({ algorithm, keyId: thumbprint(nodeKey(pair.publicKey)) });
    expect(signer.publicJwk).not.toHaveProperty('d');
  });

  it('takes a public key imported without the verify usage', async () => {
    const pair = await generate.ed25519(false);
    const publicKey = await webcrypto.subtle.importKey('jwk', await webcrypto.subtle.exportKey('jwk', pair.publicKey), { name: 'Ed25519' }, true, []);
    await expect(requestSignerFromCryptoKey(pair.privateKey, publicKey)).resolves.toMatchObject({ keyId: thumbprint(nodeKey(pair.publicKey)) });
  });

  it('asks for the public key of a non-extractable private key', async () => {
    const pair = await generate['ecdsa-p256-sha256'](false);
    await expect(requestSignerFromCryptoKey(pair.privateKey)).rejects.toThrow(new TypeError('privateKey is not extractable, so its public key cannot be read: pass it too, requestSignerFromCryptoKey(pair.privateKey, pair.publicKey)'));
  });

  it("refuses a public key that is not the private key's", async () => {
    const [one, other] = await Promise.all([generate.ed25519(false), generate.ed25519(false)]);
    await expect(requestSignerFromCryptoKey(one.privateKey, other.publicKey)).rejects.toThrow(new TypeError("publicKey must be privateKey's public key"));
    const p256 = await generate['ecdsa-p256-sha256'](false);
    await expect(requestSignerFromCryptoKey(one.privateKey, p256.publicKey)).rejects.toThrow(new TypeError("publicKey must be privateKey's public key"));
    await expect(requestSignerFromCryptoKey(one.privateKey, one.privateKey)).rejects.toThrow(new TypeError("publicKey must be privateKey's public key"));
  });

  it('refuses a key that cannot sign requests: a public key, another algorithm or curve', async () => {
    const pair = await generate.ed25519(true);
    await expect(requestSignerFromCryptoKey(pair.publicKey)).rejects.toThrow(new TypeError('privateKey must be a private CryptoKey with the "sign" usage'));
    const rsa = await webcrypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
    await expect(requestSignerFromCryptoKey(rsa.privateKey, rsa.publicKey)).rejects.toThrow(new TypeError('privateKey must be an Ed25519 or an ECDSA P-256 key'));
    const p384 = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
    await expect(requestSignerFromCryptoKey(p384.privateKey)).rejects.toThrow(new TypeError('privateKey must be an Ed25519 or an ECDSA P-256 key'));
  });
});

// Keep the test's own thumbprint honest: RFC 8037 A.3.
describe('thumbprint (test helper)', () => {
  it('gives the RFC 8037 A.3 thumbprint', () => {
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }, format: 'jwk' });
    expect(thumbprint(publicKey)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });
});
