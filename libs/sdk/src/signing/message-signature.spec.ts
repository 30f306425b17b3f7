import { KeyObject, createHash, generateKeyPairSync, verify } from 'node:crypto';
import type { FetchRequestInit } from '../http-client';
import { GameWallet } from '../game-wallet';
import { fakeFetch } from '../testing/fake-fetch';
import { checkedRequestSigner, signatureHeaders } from './message-signature';
import { RequestSigner, requestSignerFromPem } from './request-signer';

const player = { id: 'p-1', profileId: 'pr-1', walletId: 'w-1' };
const unavailable = { status: 503, body: { message: 'down', code: 'SERVICE_UNAVAILABLE' }, headers: { 'retry-after': '0' } };

/** What the platform reads from one signed request, parsed and checked here apart from the SDK. */
interface Received {
  components: string[];
  created: number;
  nonce: string;
  keyId: string;
  algorithm: string;
  /** The RFC 9421 §2.5 signature base, rebuilt from the request as it was sent. */
  base: string;
  signature: Buffer;
}

const SIGNATURE_INPUT = /^sig=\(((?:"[^"]+")(?: "[^"]+")*)\);created=(\d+);nonce="([A-Za-z0-9_-]{22})";keyid="([^"]+)";alg="([^"]+)"$/;

function received(url: string, init: FetchRequestInit): Received {
  const input = SIGNATURE_INPUT.exec(init.headers['signature-input']);
  const signature = /^sig=:([A-Za-z0-9+/]+={0,2}):$/.exec(init.headers.signature);
  if (!input || !signature) {
    throw new Error(`Not a signature: ${init.headers['signature-input']} / ${init.headers.signature}`);
  }
  const components = input[1].split(' ').map((name) => name.slice(1, -1));
  const value = (name: string) => (name === '@method' ? init.method : name === '@target-uri' ? url : init.headers[name].trim());
  const base = [...components.map((name) => `"${name}": ${value(name)}`), `"@signature-params": ${init.headers['signature-input'].slice('sig='.length)}`].join('\n');
  return { components, created: Number(input[2]), nonce: input[3], keyId: input[4], algorithm: input[5], base, signature: Buffer.from(signature[1], 'base64') };
}

function verifies(publicKey: KeyObject, request: Received): boolean {
  const base = Buffer.from(request.base);
  return publicKey.asymmetricKeyType === 'ed25519' ? verify(null, base, publicKey, request.signature) : verify('sha256', base, { key: publicKey, dsaEncoding: 'ieee-p1363' }, request.signature);
}

function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = jwk.kty === 'OKP' ? `{"crv":"${jwk.crv}","kty":"OKP","x":"${jwk.x}"}` : `{"crv":"${jwk.crv}","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

const sha256ContentDigest = (body: string) => `sha-256=:${createHash('sha256').update(body, 'utf8').digest('base64')}:`;

describe.each([
  ['Ed25519', 'ed25519', () => generateKeyPairSync('ed25519')],
  ['P-256', 'ecdsa-p256-sha256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' })],
] as const)('GameWallet with a %s requestSigner', (_, algorithm, generate) => {
  const { privateKey, publicKey } = generate();
  let signer: RequestSigner;
  const client = (fetch: ReturnType<typeof fakeFetch>, baseUrl = 'https://api.test') =>
    new GameWallet({ baseUrl, coreUrl: 'https://core.test/prefix', apiKey: 'gk_key', requestSigner: signer, fetch, retryDelayMs: 1 });

  beforeAll(async () => {
    signer = await requestSignerFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('signs a write: method, URL, API key, Content-Digest of the body and Idempotency-Key, verifiable with the public key', async () => {
    const fetch = fakeFetch({ status: 200, body: { chain: 'evm', address: '0x', signature: '0x' } });
    await client(fetch).wallets.sign('w-1', { chain: 'evm', message: 'hello' });
    const [{ url, init }] = fetch.requests;
    const request = received(url, init);
    expect(request.components).toEqual(['@method', '@target-uri', 'x-api-key', 'content-digest', 'idempotency-key']);
    expect(request).toMatchObject({ keyId: thumbprint(publicKey), algorithm });
    expect(init.headers['content-digest']).toBe(sha256ContentDigest(init.body!));
    expect(request.base).toBe(
      [
        '"@method": POST',
        '"@target-uri": https://api.test/v1/wallet/w-1/sign',
        '"x-api-key": gk_key',
        `"content-digest": ${init.headers['content-digest']}`,
        `"idempotency-key": ${init.headers['idempotency-key']}`,
        `"@signature-params": ("@method" "@target-uri" "x-api-key" "content-digest" "idempotency-key");created=${request.created};nonce="${request.nonce}";keyid="${request.keyId}";alg="${algorithm}"`,
      ].join('\n'),
    );
    expect(verifies(publicKey, request)).toBe(true);
    expect(Math.abs(request.created - Date.now() / 1000)).toBeLessThan(5);
  });

  it('digests the UTF-8 bytes of the body as sent', async () => {
    const fetch = fakeFetch({ status: 201, body: player });
    await client(fetch).players.create({ uniqueId: 'zoë-🎮', userData: { name: 'Zoë', note: 'naïve ✓' } });
    const [{ url, init }] = fetch.requests;
    expect(init.body).toBe('{"uniqueId":"zoë-🎮","userData":{"name":"Zoë","note":"naïve ✓"}}');
    expect(init.headers['content-digest']).toBe(sha256ContentDigest(init.body!));
    expect(verifies(publicKey, received(url, init))).toBe(true);
  });

  it('signs a read and a write without a body without Content-Digest, the URL with its path prefix and query', async () => {
    const fetch = fakeFetch({ status: 200, body: player }, { status: 204 }, { status: 200, body: {} });
    const wallet = client(fetch);
    await wallet.players.get('p/1');
    await wallet.profiles.revoke('pr-1');
    await wallet.wallets.get('w-1', { include: 'profile', chain: 'sui' });
    const requests = fetch.requests.map(({ url, init }) => ({ init, signed: received(url, init) }));
    expect(requests.map(({ init }) => init.headers['content-digest'])).toEqual([undefined, undefined, undefined]);
    expect(requests.map(({ signed }) => signed.components)).toEqual([
      ['@method', '@target-uri', 'x-api-key'],
      ['@method', '@target-uri', 'x-api-key', 'idempotency-key'],
      ['@method', '@target-uri', 'x-api-key'],
    ]);
    expect(requests[0].signed.base.split('\n').slice(0, 2)).toEqual(['"@method": GET', '"@target-uri": https://core.test/prefix/v1/player/p%2F1']);
    expect(requests[2].signed.base).toContain('"@target-uri": https://api.test/v1/wallet/w-1?include=profile&chain=sui\n');
    expect(requests.every(({ signed }) => verifies(publicKey, signed))).toBe(true);
  });

  it('signs the URL as fetch sends it: lower-case host, no default port', async () => {
    const fetch = fakeFetch({ status: 200, body: { keys: [] } });
    await client(fetch, 'HTTPS://API.Test:443/Base').jwks();
    const [{ url, init }] = fetch.requests;
    expect(url).toBe('https://api.test/Base/v1/.well-known/jwks.json');
    expect(received(url, init).base).toContain(`"@target-uri": ${url}\n`);
    expect(verifies(publicKey, received(url, init))).toBe(true);
  });

  it('signs each attempt anew: a new nonce and created, the same Idempotency-Key and Content-Digest', async () => {
    let now = Date.parse('2026-11-21T10:00:00.000Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const fetch = fakeFetch(
      async (url, init) => {
        now += 2_000;
        return fakeFetch(unavailable)(url, init);
      },
      { status: 200, body: { chain: 'sol', address: 'a', signature: 's' } },
    );
    await client(fetch).wallets.signTransaction('w-1', { chain: 'sol', transaction: 'AQID' });
    expect(fetch.requests).toHaveLength(2);
    const [first, second] = fetch.requests.map(({ url, init }) => received(url, init));
    expect(second.created - first.created).toBe(2);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.signature).not.toEqual(first.signature);
    const [one, two] = fetch.requests.map(({ init }) => init.headers);
    expect([two['idempotency-key'], two['content-digest']]).toEqual([one['idempotency-key'], one['content-digest']]);
    expect(verifies(publicKey, first) && verifies(publicKey, second)).toBe(true);
  });
});

describe(signatureHeaders.name, () => {
  const request = { method: 'POST' as const, url: 'https://api.test/v1/x', headers: { 'X-Api-Key': ' gk_key ' }, body: '{}' };

  it('covers a header whatever the case of its name, with its value trimmed', async () => {
    const seen: string[] = [];
    const signer: RequestSigner = { keyId: 'k', algorithm: 'ed25519', sign: async (data) => (seen.push(new TextDecoder().decode(data)), new Uint8Array(64)) };
    await signatureHeaders(request, signer, 1_800_000_000_000);
    expect(seen[0].split('\n').slice(0, 3)).toEqual(['"@method": POST', '"@target-uri": https://api.test/v1/x', '"x-api-key": gk_key']);
    expect(seen[0]).toMatch(/\n"@signature-params": \("@method" "@target-uri" "x-api-key" "content-digest"\);created=1800000000;nonce="[A-Za-z0-9_-]{22}";keyid="k";alg="ed25519"$/);
  });

  it('refuses a signature of the wrong length (a DER ECDSA signature from a KMS), sending nothing', async () => {
    const der: RequestSigner = { keyId: 'k', algorithm: 'ecdsa-p256-sha256', sign: async () => new Uint8Array(71) };
    await expect(signatureHeaders(request, der)).rejects.toThrow(new TypeError('requestSigner.sign must give 64 bytes for ecdsa-p256-sha256 (ECDSA as r‖s, IEEE P1363, not DER)'));
    const fetch = fakeFetch({ status: 200, body: {} });
    const wallet = new GameWallet({ baseUrl: 'https://api.test', coreUrl: 'https://core.test', apiKey: 'gk', requestSigner: der, fetch });
    await expect(wallet.wallets.sign('w', { chain: 'evm', message: 'm' })).rejects.toThrow(TypeError);
    expect(fetch.requests).toHaveLength(0);
  });

  it("rejects the call with the signer's own error, without retrying it", async () => {
    const down = new Error('KMS unavailable');
    const sign = jest.fn(async () => Promise.reject(down));
    const fetch = fakeFetch({ status: 200, body: {} });
    const wallet = new GameWallet({ baseUrl: 'https://api.test', coreUrl: 'https://core.test', apiKey: 'gk', requestSigner: { keyId: 'k', algorithm: 'ed25519', sign }, fetch });
    await expect(wallet.jwks()).rejects.toBe(down);
    expect(sign).toHaveBeenCalledTimes(1);
    expect(fetch.requests).toHaveLength(0);
  });
});

describe(checkedRequestSigner.name, () => {
  const sign = async () => new Uint8Array(64);

  it.each([
    ['no sign function', { keyId: 'k', algorithm: 'ed25519' }, 'requestSigner must be a RequestSigner'],
    ['another algorithm', { keyId: 'k', algorithm: 'rsa-pss-sha512', sign }, "requestSigner.algorithm must be 'ed25519' or 'ecdsa-p256-sha256'"],
    ['an inherited algorithm name', { keyId: 'k', algorithm: 'toString', sign }, "requestSigner.algorithm must be 'ed25519' or 'ecdsa-p256-sha256'"],
    ['an empty keyId', { keyId: '', algorithm: 'ed25519', sign }, 'requestSigner.keyId must be 1 to 255 printable ASCII characters'],
    ['a keyId with a double quote', { keyId: 'a"b', algorithm: 'ed25519', sign }, 'requestSigner.keyId must be 1 to 255 printable ASCII characters'],
  ])('refuses a signer with %s when the client is made', (_, requestSigner, message) => {
    expect(() => new GameWallet({ baseUrl: 'https://api.test', coreUrl: 'https://core.test', apiKey: 'gk', requestSigner: requestSigner as unknown as RequestSigner })).toThrow(message);
  });
});
