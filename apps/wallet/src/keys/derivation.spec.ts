import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { HDKey } from '@scure/bip32';
import { randomBytes } from 'node:crypto';
import { CHAINS, PATHS, addressOf, addressesOf, bip32Secp256k1, chainKey, ed25519PublicKey, mnemonicOf, scalarAddModN, secp256k1PublicKey, seedOf, seedOfEntropy } from './derivation';
import { signEvm, signSol, signSui } from '../chains';

interface Vectors {
  mnemonics: { mnemonic: string; seedHex: string; evm: { path: string; address: string }; sol: { path: string; address: string }; sui: { path: string; address: string } }[];
  signatures: { mnemonic: string; message: string; evm: { signature: string }; sol: { signature: string }; sui: { signature: string } };
}

/** Vectors cross-checked with ethers, @solana/web3.js, @mysten/sui and tweetnacl (a copy kept with the tests). */
const vectors = JSON.parse(readFileSync(join(__dirname, 'fixtures/vectors.json'), 'utf8')) as Vectors;

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
    expect({ evm: signEvm, sol: signSol, sui: signSui }[chain](chainKey(seed, chain), message)).toBe(vectors.signatures[chain].signature);
  });
});

describe('native derivation agrees with the reference libraries', () => {
  it('derives the same secp256k1 keys as @scure/bip32 for random seeds and paths', () => {
    for (let round = 0; round < 30; round += 1) {
      const seed = randomBytes(64);
      for (const path of ["m/44'/60'/0'/0/0", "m/44'/60'/0'/0/7", "m/0/1'/2", 'm/5']) {
        expect(Buffer.from(bip32Secp256k1(seed, path)).toString('hex')).toBe(Buffer.from(HDKey.fromMasterSeed(seed).derive(path).privateKey!).toString('hex'));
      }
    }
  });

  it('writes the same words as @scure/bip39 for random entropy of every BIP-39 length and the edge patterns', () => {
    for (const length of [16, 20, 24, 28, 32]) {
      const patterns = [0x00, 0xff, 0x7f, 0x80].map((byte) => Buffer.alloc(length, byte));
      for (const entropy of [...patterns, ...Array.from({ length: 60 }, () => randomBytes(length))]) {
        expect(mnemonicOf(entropy)).toBe(entropyToMnemonic(entropy, wordlist));
      }
    }
  });

  it('makes the same seed from entropy directly as from its mnemonic (@scure/bip39), with no mnemonic string', () => {
    for (const length of [16, 24, 32]) {
      for (const entropy of [Buffer.alloc(length, 0xff), ...Array.from({ length: 10 }, () => randomBytes(length))]) {
        expect(seedOfEntropy(entropy).toString('hex')).toBe(Buffer.from(seedOf(entropyToMnemonic(entropy, wordlist))).toString('hex'));
      }
    }
    for (const vector of vectors.mnemonics) {
      expect(seedOfEntropy(mnemonicToEntropy(vector.mnemonic, wordlist)).toString('hex')).toBe(vector.seedHex);
    }
  });

  it('adds secp256k1 scalars mod n on bytes exactly as BigInt arithmetic does, at the edges and at random', () => {
    const n = secp256k1.CURVE.n;
    const bytes = (value: bigint): Uint8Array => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
    const edges = [0n, 1n, 2n, n - 1n, n - 2n, n / 2n, n / 2n + 1n, 2n ** 255n, 2n ** 256n - 2n ** 129n];
    const randoms = Array.from({ length: 2000 }, () => BigInt(`0x${randomBytes(32).toString('hex')}`) % n);
    for (const a of [...edges.filter((value) => value < n), ...randoms.slice(0, 50)]) {
      for (const b of [...edges.filter((value) => value < n), ...randoms.slice(50, 100)]) {
        expect(Buffer.from(scalarAddModN(bytes(a), bytes(b))).toString('hex')).toBe(Buffer.from(bytes((a + b) % n)).toString('hex'));
      }
    }
    for (let index = 100; index < randoms.length; index += 2) {
      const [a, b] = [randoms[index], randoms[index + 1]];
      expect(Buffer.from(scalarAddModN(bytes(a), bytes(b))).toString('hex')).toBe(Buffer.from(bytes((a + b) % n)).toString('hex'));
    }
  });

  it('refuses entropy of a length BIP-39 does not define', () => {
    expect(() => mnemonicOf(randomBytes(33))).toThrow('BIP-39 entropy');
    expect(() => mnemonicOf(randomBytes(12))).toThrow('BIP-39 entropy');
  });

  it('computes the same public keys as @noble/curves', () => {
    for (let round = 0; round < 30; round += 1) {
      const key = randomBytes(32);
      expect(secp256k1PublicKey(key, false).equals(Buffer.from(secp256k1.getPublicKey(key, false)))).toBe(true);
      expect(secp256k1PublicKey(key, true).equals(Buffer.from(secp256k1.getPublicKey(key, true)))).toBe(true);
      expect(ed25519PublicKey(key).equals(Buffer.from(ed25519.getPublicKey(key)))).toBe(true);
    }
  });
});
