import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transferableSymbol, valueSymbol } from 'piscina';
import { CHAINS, addressOf, addressesOf } from './derivation';
import { SIGNATURE_PRIMITIVES } from '../chains/signature-primitives';
import { openChainKey } from './chain-key-envelope';
import { GeneratedWallet, chainKeyOfEntropy, deriveChainKeys, generateWallets, signWithKeys } from './keys.worker';

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

  it('moves to the caller rather than being copied, each of a task\'s keys in its own buffer', () => {
    const moved = deriveChainKeys([
      { entropy: entropyOf(0), chain: 'sui' },
      { entropy: entropyOf(1), chain: 'evm' },
    ]) as unknown as { [valueSymbol]: Uint8Array[]; [transferableSymbol]: unknown };
    const keys = moved[valueSymbol];
    expect(moved[transferableSymbol]).toEqual(keys.map((key) => key.buffer));
    expect([addressOf('sui', keys[0]), addressOf('evm', keys[1])]).toEqual([vectors.mnemonics[0].sui.address, vectors.mnemonics[1].evm.address]);
  });

  it('zeroes the keys derived and the entropy left when one of a task\'s keys cannot be derived', () => {
    const tasks = [
      { entropy: entropyOf(0), chain: 'evm' as const },
      { entropy: entropyOf(1), chain: 'nope' as never },
      { entropy: entropyOf(0), chain: 'sol' as const },
    ];
    expect(() => deriveChainKeys(tasks)).toThrow();
    tasks.forEach((task) => expect(task.entropy.every((byte) => byte === 0)).toBe(true));
  });
});

describe('the wallets generated on a worker thread', () => {
  const owners = [1, 2, 3].map((n) => ({ id: `0190000${n}-0000-7000-8000-000000000001`, applicationId: '01900000-0000-7000-8000-0000000000aa', profileId: `0190000${n}-0000-7000-8000-0000000000bb` }));

  it('are one per owner, each with fresh entropy and data key, the addresses derived from it and its chain keys sealed to them', () => {
    const moved = generateWallets(owners) as unknown as { [valueSymbol]: GeneratedWallet[] };
    const wallets = moved[valueSymbol];
    expect(wallets).toHaveLength(3);
    expect(new Set(wallets.map((wallet) => Buffer.from(wallet.entropy).toString('hex'))).size).toBe(3);
    expect(new Set(wallets.map((wallet) => Buffer.from(wallet.dataKey).toString('hex'))).size).toBe(3);
    wallets.forEach((wallet, index) => {
      expect(wallet.entropy).toHaveLength(32);
      expect(wallet.addresses).toEqual(addressesOf(wallet.entropy));
      for (const chain of CHAINS) {
        const key = openChainKey(Buffer.from(wallet.dataKey), owners[index], chain, wallet.sealedChainKeys[chain]);
        expect(addressOf(chain, key)).toBe(wallet.addresses[chain]);
      }
    });
  });

  it('move their entropy and data key to the caller, each in a buffer of its own, rather than copying them', () => {
    const moved = generateWallets(owners.slice(0, 2)) as unknown as { [valueSymbol]: GeneratedWallet[]; [transferableSymbol]: unknown };
    const wallets = moved[valueSymbol];
    expect(moved[transferableSymbol]).toEqual(wallets.flatMap((wallet) => [wallet.entropy.buffer, wallet.dataKey.buffer]));
    wallets.forEach((wallet) => {
      expect([wallet.entropy.byteOffset, wallet.entropy.buffer.byteLength]).toEqual([0, 32]);
      expect([wallet.dataKey.byteOffset, wallet.dataKey.buffer.byteLength]).toEqual([0, 32]);
    });
  });
});

describe('signing on a worker thread', () => {
  it.each(CHAINS)('makes the %s signature the event loop makes, and zeroes the key', (chain) => {
    const key = chainKeyOfEntropy({ entropy: entropyOf(0), chain });
    const payload = new Uint8Array(randomBytes(32));
    const expected = SIGNATURE_PRIMITIVES[chain](key, payload);
    const [signature] = signWithKeys([{ key, chain, payload }]);
    expect(Buffer.from(signature).equals(Buffer.from(expected))).toBe(true);
    expect(key.every((byte) => byte === 0)).toBe(true);
  });
});
