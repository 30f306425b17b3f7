import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAINS, PATHS, addressOf, addressesOf, chainKey, seedOf } from './derivation';
import { signWith } from './signing';

interface Vectors {
  mnemonics: { mnemonic: string; seedHex: string; evm: { path: string; address: string }; sol: { path: string; address: string }; sui: { path: string; address: string } }[];
  signatures: { mnemonic: string; message: string; evm: { signature: string }; sol: { signature: string }; sui: { signature: string } };
}

/** Cross-checked vectors (ethers, @solana/web3.js, @mysten/sui): the shared folder beside the repository. */
const vectors = JSON.parse(readFileSync(join(__dirname, '../../../../../shared/vectors.json'), 'utf8')) as Vectors;

describe('HD wallet derivation (SPEC §6)', () => {
  it.each(vectors.mnemonics.map((vector) => [vector.mnemonic.split(' ').slice(0, 2).join(' '), vector] as const))(
    'reproduces the seed and the three addresses of "%s …"',
    (_, vector) => {
      const seed = seedOf(vector.mnemonic);
      expect(Buffer.from(seed).toString('hex')).toBe(vector.seedHex);
      for (const chain of CHAINS) {
        expect(PATHS[chain]).toBe(vector[chain].path);
        expect(addressOf(chain, chainKey(seed, chain))).toBe(vector[chain].address);
      }
      expect(addressesOf(mnemonicToEntropy(vector.mnemonic, wordlist))).toEqual({
        evm: vector.evm.address,
        sol: vector.sol.address,
        sui: vector.sui.address,
      });
    },
  );

  it.each(CHAINS)('reproduces the %s signature vector', (chain) => {
    const seed = seedOf(vectors.signatures.mnemonic);
    const message = new TextEncoder().encode(vectors.signatures.message);
    expect(signWith(chain, chainKey(seed, chain), message)).toBe(vectors.signatures[chain].signature);
  });
});
