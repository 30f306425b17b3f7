import { webcrypto } from 'node:crypto';
import { randomBytes, randomUuid, webCrypto } from './web-crypto';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe(webCrypto.name, () => {
  it('uses globalThis.crypto.subtle when there is one', async () => {
    await expect(webCrypto()).resolves.toBe(globalThis.crypto.subtle);
  });

  it("falls back to node:crypto's webcrypto where there is no global crypto (Node.js 18)", async () => {
    await expect(webCrypto({})).resolves.toBe(webcrypto.subtle);
  });
});

describe(randomBytes.name, () => {
  it('fills the bytes with crypto.getRandomValues of the scope', async () => {
    const getRandomValues = <T extends Uint8Array>(array: T): T => array.fill(7);
    await expect(randomBytes(4, { crypto: { getRandomValues } })).resolves.toEqual(new Uint8Array([7, 7, 7, 7]));
  });

  it("falls back to node:crypto's getRandomValues where there is no global crypto", async () => {
    const [first, second] = await Promise.all([randomBytes(16, {}), randomBytes(16, {})]);
    expect(first).toHaveLength(16);
    expect(first).not.toEqual(second);
  });
});

describe(randomUuid.name, () => {
  it('uses crypto.randomUUID when there is one', async () => {
    await expect(randomUuid({ crypto: { randomUUID: () => 'from-the-platform' } })).resolves.toBe('from-the-platform');
  });

  it('lays out a version 4 UUID from getRandomValues where randomUUID is missing (a browser on http)', async () => {
    await expect(randomUuid({ crypto: { getRandomValues: <T extends Uint8Array>(array: T): T => array.fill(0xff) } })).resolves.toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    await expect(randomUuid({ crypto: { getRandomValues: <T extends Uint8Array>(array: T): T => array.fill(0) } })).resolves.toBe('00000000-0000-4000-8000-000000000000');
    const keys = await Promise.all(Array.from({ length: 20 }, () => randomUuid({ crypto: { getRandomValues: (array) => webcrypto.getRandomValues(array) } })));
    expect(keys.every((key) => UUID_V4.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(20);
  });
});
