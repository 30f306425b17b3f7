import { createDecipheriv, randomBytes } from 'node:crypto';
import { IntegrityError, open, seal } from './aes-gcm';

describe('AES-256-GCM seal/open', () => {
  const key = randomBytes(32);
  const aad = Buffer.from('wallet-1');

  it('round-trips with the same key and associated data', () => {
    const sealed = seal(key, Buffer.from('secret'), aad);
    expect(open(key, sealed, aad).toString()).toBe('secret');
  });

  it('uses a fresh IV each time', () => {
    expect(seal(key, Buffer.from('x'), aad).iv.equals(seal(key, Buffer.from('x'), aad).iv)).toBe(false);
  });

  it('refuses other associated data, another key, or a flipped bit', () => {
    const sealed = seal(key, Buffer.from('secret'), aad);
    expect(() => open(key, sealed, Buffer.from('wallet-2'))).toThrow(IntegrityError);
    expect(() => open(randomBytes(32), sealed, aad)).toThrow(IntegrityError);
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0] ^= 1;
    expect(() => open(key, { ...sealed, ciphertext: flipped }, aad)).toThrow(IntegrityError);
  });

  it('opens only with the full 16-byte tag and a 12-byte IV (a tag cut short is refused, though it is a prefix of the right one)', () => {
    const sealed = seal(key, Buffer.from('secret'), aad);
    for (const length of [4, 8, 12, 15]) {
      expect(() => open(key, { ...sealed, tag: sealed.tag.subarray(0, length) }, aad)).toThrow(IntegrityError);
    }
    expect(() => open(key, { ...sealed, iv: Buffer.concat([sealed.iv, Buffer.alloc(4)]) }, aad)).toThrow(IntegrityError);
  });

  describe('zeroing', () => {
    afterEach(() => {
      jest.restoreAllMocks();
    });

    /** Watches every decipher: the buffers its update() and final() hand out, to look at once open() is done. */
    const watchDecipherOutputs = (): (() => Buffer[]) => {
      const prototype = Object.getPrototypeOf(createDecipheriv('aes-256-gcm', randomBytes(32), randomBytes(12))) as { update: () => Buffer; final: () => Buffer };
      const spies = [jest.spyOn(prototype, 'update'), jest.spyOn(prototype, 'final')];
      return () => spies.flatMap((spy) => spy.mock.results.filter((result) => result.type === 'return').map((result) => result.value as Buffer));
    };
    const zeroed = (buffer: Buffer) => buffer.every((byte) => byte === 0);
    const secret = () => randomBytes(32);

    it('leaves the plaintext in the returned buffer only: every other decipher output is zeroed', () => {
      const plaintext = secret();
      const sealed = seal(key, plaintext, aad);
      const outputs = watchDecipherOutputs();
      const opened = open(key, sealed, aad);
      expect(opened.equals(plaintext)).toBe(true);
      expect(outputs().length).toBeGreaterThanOrEqual(2);
      for (const output of outputs()) {
        expect(output === opened || zeroed(output)).toBe(true);
      }
    });

    it('zeroes the plaintext the decipher wrote before the tag failed (the right key with another owner\'s associated data)', () => {
      const plaintext = secret();
      const sealed = seal(key, plaintext, aad);
      const outputs = watchDecipherOutputs();
      expect(() => open(key, sealed, Buffer.from('wallet-2'))).toThrow(IntegrityError);
      const written = outputs();
      expect(written.map((output) => output.length)).toEqual([plaintext.length]);
      expect(zeroed(written[0])).toBe(true);
    });
  });
});
