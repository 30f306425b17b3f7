import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transferableSymbol, valueSymbol } from 'piscina';
import { CHAINS, addressOf } from './derivation';
import { chainKeyOfEntropy, deriveChainKey } from './keys.worker';

const vectors = JSON.parse(readFileSync(join(__dirname, 'fixtures/vectors.json'), 'utf8')) as {
  mnemonics: { mnemonic: string; evm: { address: string }; sol: { address: string }; sui: { address: string } }[];
};
const entropyOf = (index = 0): Uint8Array => mnemonicToEntropy(vectors.mnemonics[index].mnemonic, wordlist);

describe('the signing key derived on a worker thread', () => {
  it.each(CHAINS)('is the %s key whose address the wallets agree on', (chain) => {
    vectors.mnemonics.forEach((vector, index) => {
      expect(addressOf(chain, chainKeyOfEntropy({ entropy: entropyOf(index), chain }))).toBe(vector[chain].address);
    });
  });

  it('zeroes the entropy it was given', () => {
    const entropy = new Uint8Array(randomBytes(32));
    expect(entropy.some((byte) => byte !== 0)).toBe(true);
    chainKeyOfEntropy({ entropy, chain: 'evm' });
    expect(entropy.every((byte) => byte === 0)).toBe(true);
  });

  it('is answered in a buffer of its own, so that moving it to the caller moves nothing else', () => {
    const key = chainKeyOfEntropy({ entropy: entropyOf(), chain: 'sol' });
    expect([key.byteOffset, key.buffer.byteLength]).toEqual([0, 32]);
  });

  it('moves to the caller rather than being copied', () => {
    const moved = deriveChainKey({ entropy: entropyOf(), chain: 'sui' }) as unknown as { [valueSymbol]: Uint8Array; [transferableSymbol]: unknown };
    const key = moved[valueSymbol];
    expect(moved[transferableSymbol]).toBe(key.buffer);
    expect(addressOf('sui', key)).toBe(vectors.mnemonics[0].sui.address);
  });
});
