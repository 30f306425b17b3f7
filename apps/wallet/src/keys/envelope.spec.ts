import { seal } from '@game-wallet/crypto';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { CURRENT_AAD_VERSION, KeyIntegrityError, SealedSecret, WalletOwner, openEntropy, rewrapEntropy, sealEntropy } from './envelope';
import { EnvironmentKeyring, MasterKeyring } from './master-keyring';

describe('wallet envelope encryption', () => {
  const keys = new Map([
    ['k1', randomBytes(32)],
    ['k2', randomBytes(32)],
  ]);
  const keyring = new EnvironmentKeyring(keys, 'k1');
  const entropy = randomBytes(32);
  const owner: WalletOwner = { id: 'w1', applicationId: 'game-1', profileId: 'profile-1' };

  it('opens what it sealed, and stores neither the entropy nor the data key in clear', async () => {
    const sealed = await sealEntropy(owner, entropy, keyring);
    expect([sealed.aadVersion, sealed.masterKeyId]).toEqual([CURRENT_AAD_VERSION, 'k1']);
    expect((await openEntropy(owner, sealed, keyring)).equals(entropy)).toBe(true);
    const stored = Buffer.concat([sealed.entropyCiphertext, sealed.dataKeyCiphertext]);
    expect(stored.includes(entropy.subarray(0, 8))).toBe(false);
  });

  it.each([
    ['another wallet', { ...owner, id: 'w2' }],
    ['another game', { ...owner, applicationId: 'game-2' }],
    ['another profile', { ...owner, profileId: 'profile-2' }],
  ])('refuses to open the secret for %s (it is bound to wallet, game and profile)', async (_, other) => {
    const sealed = await sealEntropy(owner, entropy, keyring);
    await expect(openEntropy(other, sealed, keyring)).rejects.toThrow(KeyIntegrityError);
  });

  it('refuses a data key that claims another master key (AAD includes the key id)', async () => {
    const sealed = await sealEntropy(owner, entropy, keyring);
    await expect(openEntropy(owner, { ...sealed, masterKeyId: 'k2' }, keyring)).rejects.toThrow(KeyIntegrityError);
  });

  it('rewraps under another master key, keeping the entropy', async () => {
    const sealed = await sealEntropy(owner, entropy, keyring);
    const moved = await rewrapEntropy(owner, sealed, keyring, 'k2');
    expect(moved.masterKeyId).toBe('k2');
    expect(moved.entropyCiphertext.equals(sealed.entropyCiphertext)).toBe(true);
    const k2Only = new EnvironmentKeyring(new Map([['k2', keys.get('k2')!]]), 'k2');
    expect((await openEntropy(owner, moved, k2Only)).equals(entropy)).toBe(true);
  });

  it('opens an older secret bound to the wallet id alone only when asked to, and rewrapping binds it to its owner', async () => {
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
    await expect(openEntropy(owner, legacy, keyring)).rejects.toThrow(KeyIntegrityError);
    expect((await openEntropy(owner, legacy, keyring, { acceptVersion1: true })).equals(entropy)).toBe(true);
    const bound = await rewrapEntropy(owner, legacy, keyring);
    expect(bound.aadVersion).toBe(CURRENT_AAD_VERSION);
    expect((await openEntropy(owner, bound, keyring)).equals(entropy)).toBe(true);
    await expect(openEntropy({ ...owner, profileId: 'profile-2' }, bound, keyring)).rejects.toThrow(KeyIntegrityError);
  });

  describe('zeroing', () => {
    /** The environment keyring, keeping every data key it is handed or hands out, to look at them afterwards. */
    const watching = (): { keyring: MasterKeyring; dataKeys: Buffer[] } => {
      const dataKeys: Buffer[] = [];
      const watched = Object.create(keyring) as MasterKeyring;
      watched.wrap = (id, dataKey, aad) => {
        dataKeys.push(dataKey);
        return keyring.wrap(id, dataKey, aad);
      };
      watched.unwrap = async (id, wrapped, aad) => {
        const dataKey = await keyring.unwrap(id, wrapped, aad);
        dataKeys.push(dataKey);
        return dataKey;
      };
      return { keyring: watched, dataKeys };
    };
    const zeroed = (buffer: Buffer) => buffer.every((byte) => byte === 0);

    it('zeroes the data key once a new secret is sealed, and once a secret is opened', async () => {
      const { keyring: watched, dataKeys } = watching();
      const sealed = await sealEntropy(owner, entropy, watched);
      expect((await openEntropy(owner, sealed, watched)).equals(entropy)).toBe(true);
      expect(dataKeys).toHaveLength(2);
      expect(dataKeys.every(zeroed)).toBe(true);
    });

    it('zeroes the data key when the entropy fails to open, and after a rewrap', async () => {
      const { keyring: watched, dataKeys } = watching();
      const sealed = await sealEntropy(owner, entropy, watched);
      await expect(openEntropy(owner, { ...sealed, entropyTag: Buffer.alloc(16) }, watched)).rejects.toThrow(KeyIntegrityError);
      await rewrapEntropy(owner, sealed, watched, 'k2');
      expect(dataKeys.length).toBeGreaterThanOrEqual(3);
      expect(dataKeys.every(zeroed)).toBe(true);
    });

    it('leaves the entropy in the one buffer it returns, and no data key or entropy at all when a secret fails to open', async () => {
      const prototype = Object.getPrototypeOf(createDecipheriv('aes-256-gcm', randomBytes(32), randomBytes(12))) as { update: () => Buffer; final: () => Buffer };
      const spies = [jest.spyOn(prototype, 'update'), jest.spyOn(prototype, 'final')];
      const outputs = () => spies.flatMap((spy) => spy.mock.results.filter((result) => result.type === 'return').map((result) => result.value as Buffer));
      try {
        const sealed = await sealEntropy(owner, entropy, keyring);
        const opened = await openEntropy(owner, sealed, keyring);
        expect(opened.equals(entropy)).toBe(true);
        expect(outputs().filter((output) => output !== opened).every(zeroed)).toBe(true);
        const opening = outputs().length;
        // Another owner: the real data key is written before its tag (bound to the owner) fails.
        await expect(openEntropy({ ...owner, profileId: 'profile-2' }, sealed, keyring)).rejects.toThrow(KeyIntegrityError);
        // A broken entropy tag: the data key opens (the envelope zeroes it), the real entropy is written before its tag fails.
        await expect(openEntropy(owner, { ...sealed, entropyTag: Buffer.alloc(16) }, keyring)).rejects.toThrow(KeyIntegrityError);
        const failed = outputs().slice(opening);
        expect(failed.some((output) => output.length === 32)).toBe(true);
        expect(failed.every(zeroed)).toBe(true);
      } finally {
        jest.restoreAllMocks();
      }
    });

    it("leaves the caller's entropy as it was (the envelope zeroes only its own copies)", async () => {
      const mine = Buffer.from(entropy);
      await sealEntropy(owner, mine, keyring);
      expect(mine.equals(entropy)).toBe(true);
    });
  });
});
