import { IntegrityError } from '@game-wallet/crypto';
import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChainKeyMismatchError, SEALED_CHAIN_KEY_BYTES, chainKeyAad, openChainKey, sealChainKeysOfEntropy } from './chain-key-envelope';
import { CHAINS, addressOf } from './derivation';

const vectors = JSON.parse(readFileSync(join(__dirname, 'fixtures/vectors.json'), 'utf8')) as {
  mnemonics: { mnemonic: string; evm: { address: string }; sol: { address: string }; sui: { address: string } }[];
};
const vector = vectors.mnemonics[0];
const entropy = (): Uint8Array => mnemonicToEntropy(vector.mnemonic, wordlist);
const addresses = { evm: vector.evm.address, sol: vector.sol.address, sui: vector.sui.address };
const owner = { id: '01900000-0000-7000-8000-000000000001', applicationId: '01900000-0000-7000-8000-0000000000aa', profileId: '01900000-0000-7000-8000-0000000000bb' };

describe('sealed chain keys', () => {
  const dataKey = randomBytes(32);

  it('seals each chain key as iv ‖ ciphertext ‖ tag, opening to the key of the wallet\'s address (the vectors\')', () => {
    const { addresses: derived, sealed } = sealChainKeysOfEntropy(entropy(), dataKey, owner, addresses);
    expect(derived).toEqual(addresses);
    for (const chain of CHAINS) {
      expect(sealed[chain]).toHaveLength(SEALED_CHAIN_KEY_BYTES);
      expect(addressOf(chain, openChainKey(dataKey, owner, chain, sealed[chain]))).toBe(addresses[chain]);
    }
  });

  it('binds each sealed key to its wallet, owner and chain: moved to another, it does not open', () => {
    const { sealed } = sealChainKeysOfEntropy(entropy(), dataKey, owner);
    expect(() => openChainKey(dataKey, owner, 'sol', sealed.sui)).toThrow(IntegrityError);
    expect(() => openChainKey(dataKey, { ...owner, id: '01900000-0000-7000-8000-000000000002' }, 'evm', sealed.evm)).toThrow(IntegrityError);
    expect(() => openChainKey(dataKey, { ...owner, profileId: owner.id }, 'evm', sealed.evm)).toThrow(IntegrityError);
    expect(() => openChainKey(randomBytes(32), owner, 'evm', sealed.evm)).toThrow(IntegrityError);
    const flipped = Buffer.from(sealed.evm);
    flipped[20] ^= 1;
    expect(() => openChainKey(dataKey, owner, 'evm', flipped)).toThrow(IntegrityError);
    expect(() => openChainKey(dataKey, owner, 'evm', sealed.evm.subarray(0, 59))).toThrow(IntegrityError);
  });

  it('names the chain and the owner in its associated data, apart from the entropy\'s', () => {
    expect(chainKeyAad(owner, 'evm').toString()).toBe(`wallet:v2|chain-key|evm|${owner.id}|${owner.applicationId}|${owner.profileId}`);
  });

  it('refuses to seal keys that do not match the stored addresses (a backfill never writes them)', () => {
    expect(() => sealChainKeysOfEntropy(entropy(), dataKey, owner, { ...addresses, sol: vectors.mnemonics[1].sol.address })).toThrow(ChainKeyMismatchError);
  });
});
