import { randomBytes } from 'node:crypto';
import { KeyIntegrityError, openEntropy, rewrapEntropy, sealEntropy } from './envelope';

describe('wallet envelope encryption', () => {
  const keys = new Map([
    ['k1', randomBytes(32)],
    ['k2', randomBytes(32)],
  ]);
  const entropy = randomBytes(32);

  it('opens what it sealed, and stores neither the entropy nor the data key in clear', () => {
    const sealed = sealEntropy('w1', entropy, 'k1', keys.get('k1')!);
    expect(openEntropy('w1', sealed, keys).equals(entropy)).toBe(true);
    const stored = Buffer.concat([sealed.entropyCiphertext, sealed.dataKeyCiphertext]);
    expect(stored.includes(entropy.subarray(0, 8))).toBe(false);
  });

  it("refuses another wallet's ciphertext (AAD = wallet id)", () => {
    const sealed = sealEntropy('w1', entropy, 'k1', keys.get('k1')!);
    expect(() => openEntropy('w2', sealed, keys)).toThrow(KeyIntegrityError);
  });

  it('refuses a data key that claims another master key (AAD includes the key id)', () => {
    const sealed = sealEntropy('w1', entropy, 'k1', keys.get('k1')!);
    expect(() => openEntropy('w1', { ...sealed, masterKeyId: 'k2' }, keys)).toThrow(KeyIntegrityError);
  });

  it('rewraps under another master key, keeping the entropy', () => {
    const sealed = sealEntropy('w1', entropy, 'k1', keys.get('k1')!);
    const moved = rewrapEntropy('w1', sealed, keys, 'k2');
    expect(moved.masterKeyId).toBe('k2');
    expect(moved.entropyCiphertext.equals(sealed.entropyCiphertext)).toBe(true);
    expect(openEntropy('w1', moved, new Map([['k2', keys.get('k2')!]])).equals(entropy)).toBe(true);
  });
});
