import { seal } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';
import { CURRENT_AAD_VERSION, KeyIntegrityError, SealedSecret, WalletOwner, openEntropy, rewrapEntropy, sealEntropy } from './envelope';

describe('wallet envelope encryption', () => {
  const keys = new Map([
    ['k1', randomBytes(32)],
    ['k2', randomBytes(32)],
  ]);
  const entropy = randomBytes(32);
  const owner: WalletOwner = { id: 'w1', applicationId: 'game-1', profileId: 'profile-1' };

  it('opens what it sealed, and stores neither the entropy nor the data key in clear', () => {
    const sealed = sealEntropy(owner, entropy, 'k1', keys.get('k1')!);
    expect(sealed.aadVersion).toBe(CURRENT_AAD_VERSION);
    expect(openEntropy(owner, sealed, keys).equals(entropy)).toBe(true);
    const stored = Buffer.concat([sealed.entropyCiphertext, sealed.dataKeyCiphertext]);
    expect(stored.includes(entropy.subarray(0, 8))).toBe(false);
  });

  it.each([
    ['another wallet', { ...owner, id: 'w2' }],
    ['another game', { ...owner, applicationId: 'game-2' }],
    ['another profile', { ...owner, profileId: 'profile-2' }],
  ])('refuses to open the secret for %s (it is bound to wallet, game and profile)', (_, other) => {
    const sealed = sealEntropy(owner, entropy, 'k1', keys.get('k1')!);
    expect(() => openEntropy(other, sealed, keys)).toThrow(KeyIntegrityError);
  });

  it('refuses a data key that claims another master key (AAD includes the key id)', () => {
    const sealed = sealEntropy(owner, entropy, 'k1', keys.get('k1')!);
    expect(() => openEntropy(owner, { ...sealed, masterKeyId: 'k2' }, keys)).toThrow(KeyIntegrityError);
  });

  it('rewraps under another master key, keeping the entropy', () => {
    const sealed = sealEntropy(owner, entropy, 'k1', keys.get('k1')!);
    const moved = rewrapEntropy(owner, sealed, keys, 'k2');
    expect(moved.masterKeyId).toBe('k2');
    expect(moved.entropyCiphertext.equals(sealed.entropyCiphertext)).toBe(true);
    expect(openEntropy(owner, moved, new Map([['k2', keys.get('k2')!]])).equals(entropy)).toBe(true);
  });

  it('opens an older secret bound to the wallet id alone, and rewrapping binds it to its owner', () => {
    const dataKey = randomBytes(32);
    const body = seal(dataKey, entropy, Buffer.from(owner.id));
    const wrapped = seal(keys.get('k1')!, dataKey, Buffer.from(`${owner.id}|k1`));
    const legacy: SealedSecret = {
      entropyCiphertext: body.ciphertext,
      entropyIv: body.iv,
      entropyTag: body.tag,
      dataKeyCiphertext: wrapped.ciphertext,
      dataKeyIv: wrapped.iv,
      dataKeyTag: wrapped.tag,
      masterKeyId: 'k1',
      aadVersion: 1,
    };
    expect(openEntropy(owner, legacy, keys).equals(entropy)).toBe(true);
    const bound = rewrapEntropy(owner, legacy, keys, 'k1');
    expect(bound.aadVersion).toBe(CURRENT_AAD_VERSION);
    expect(openEntropy(owner, bound, keys).equals(entropy)).toBe(true);
    expect(() => openEntropy({ ...owner, profileId: 'profile-2' }, bound, keys)).toThrow(KeyIntegrityError);
  });
});
