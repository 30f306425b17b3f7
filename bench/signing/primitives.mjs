#!/usr/bin/env node
// The signature primitive alone, every candidate in one run (`node bench/signing/primitives.mjs`, or `--json` for the
// numbers only; `npm run bench -- --only signing` runs it too and puts its table in the report):
//
// - secp256k1 (evm): @noble/curves with its precomputed tables warmed (what the wallet signs with), the `secp256k1`
//   package's binding to libsecp256k1 (Bitcoin Core's library), and node:crypto (OpenSSL) where it applies;
// - Ed25519 (sol, and sui with its public key appended): @noble/curves (its tables warmed too) against node:crypto.
//
// Each candidate makes the signature the wallet needs from a raw 32-byte key, as the wallet holds it once a sealed
// chain key is open (a fresh key for every signature, so a KeyObject has to be imported each time for node:crypto;
// the signature with a key imported once is given beside it). Candidates run in turns, `ROUNDS` turns of
// `TURN_MS` each, the order rotating every turn; the median turn's CPU time per signature counts (this process's
// user + system time: one thread, so it is the wall time of the loop too). Before any timing, every candidate is
// checked to give the wallet's own signature (deterministic ones byte for byte; OpenSSL's verified instead).
import { createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { secp256k1 } = require('@noble/curves/secp256k1');
const { ed25519 } = require('@noble/curves/ed25519');
const { values: args } = parseArgs({ options: { json: { type: 'boolean' }, rounds: { type: 'string' }, 'turn-ms': { type: 'string' } } });
const ROUNDS = Number(args.rounds ?? 7);
const TURN_MS = Number(args['turn-ms'] ?? 400);

// libsecp256k1 through its N-API binding only: `require('secp256k1')` falls back to the `elliptic` JavaScript library
// without a word when the binding does not load, and that is not what is measured here.
let libsecp256k1;
let libsecp256k1Error;
try {
  libsecp256k1 = require('secp256k1/bindings');
} catch (error) {
  libsecp256k1Error = error.message.split('\n')[0];
}
const libsecp256k1Version = libsecp256k1 ? require('secp256k1/package.json').version : undefined;

const KEYS = Array.from({ length: 256 }, () => {
  for (;;) {
    const key = randomBytes(32);
    if (secp256k1.utils.isValidPrivateKey(key)) return key;
  }
});
const DIGESTS = Array.from({ length: 256 }, () => randomBytes(32));
/** A Solana transaction message is a few hundred bytes; the payload sol signs. */
const SOL_MESSAGES = Array.from({ length: 256 }, () => randomBytes(200));

/** SEC 1 `ECPrivateKey` DER for a raw secp256k1 scalar (no public key: OpenSSL computes it on import). */
const SEC1_PREFIX = Buffer.from('302e0201010420', 'hex');
const SEC1_SUFFIX = Buffer.from('a00706052b8104000a', 'hex');
const secp256k1KeyObject = (key) => createPrivateKey({ key: Buffer.concat([SEC1_PREFIX, key, SEC1_SUFFIX]), format: 'der', type: 'sec1' });
/** An Ed25519 seed as a KeyObject through a JWK (the import derivation.ts uses: no decoder chain). */
const ed25519KeyObject = (seed) => createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: Buffer.from(seed).toString('base64url'), x: '' }, format: 'jwk' });
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const ed25519KeyObjectDer = (seed) => createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });

function recoverable(compact64, recovery) {
  const out = new Uint8Array(65);
  out.set(compact64);
  out[64] = recovery;
  return out;
}

/** The candidates: `sign(i)` makes signature i's output from KEYS[i] and its payload. */
const CANDIDATES = {
  evm: {
    '@noble/curves secp256k1 (precompute(8) warmed)': (i) => {
      const signature = secp256k1.sign(DIGESTS[i], KEYS[i], { lowS: true });
      return recoverable(signature.toCompactRawBytes(), signature.recovery);
    },
    ...(libsecp256k1
      ? {
          [`libsecp256k1 (secp256k1 ${libsecp256k1Version}, N-API binding)`]: (i) => {
            const { signature, recid } = libsecp256k1.ecdsaSign(DIGESTS[i], KEYS[i]);
            return recoverable(signature, recid);
          },
        }
      : {}),
    'node:crypto ECDSA (OpenSSL; random nonce, no recovery bit)': (i) => sign('sha256', DIGESTS[i], { key: secp256k1KeyObject(KEYS[i]), dsaEncoding: 'ieee-p1363' }),
    'node:crypto ECDSA, key imported once (not how keys are held)': (i) => sign('sha256', DIGESTS[i], { key: SECP_OBJECTS[i], dsaEncoding: 'ieee-p1363' }),
  },
  sol: {
    '@noble/curves ed25519 (precompute(8) warmed)': (i) => ed25519.sign(SOL_MESSAGES[i], KEYS[i]),
    'node:crypto Ed25519 (OpenSSL; JWK import)': (i) => sign(null, SOL_MESSAGES[i], ed25519KeyObject(KEYS[i])),
    'node:crypto Ed25519 (OpenSSL; PKCS#8 DER import)': (i) => sign(null, SOL_MESSAGES[i], ed25519KeyObjectDer(KEYS[i])),
    'node:crypto Ed25519, key imported once (not how keys are held)': (i) => sign(null, SOL_MESSAGES[i], ED_OBJECTS[i]),
  },
  sui: {
    '@noble/curves ed25519 (precompute(8) warmed; signature and public key)': (i) => {
      const out = new Uint8Array(97);
      out.set(ed25519.sign(DIGESTS[i], KEYS[i]), 1);
      out.set(ed25519.getPublicKey(KEYS[i]), 65);
      return out;
    },
    'node:crypto Ed25519 (signature and public key; JWK import)': (i) => {
      const key = ed25519KeyObject(KEYS[i]);
      const out = new Uint8Array(97);
      out.set(sign(null, DIGESTS[i], key), 1);
      out.set(Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x, 'base64url'), 65);
      return out;
    },
  },
};
const SECP_OBJECTS = KEYS.map(secp256k1KeyObject);
/** The wallet's own choice (chains/signature-primitives.ts, compiled by `nx run tools:compile`), timed beside the rest. */
export const WALLET_PRIMITIVE = "the wallet's SIGNATURE_PRIMITIVES";
try {
  const { SIGNATURE_PRIMITIVES } = require('../../dist/out-tsc/apps/wallet/src/chains/signature-primitives');
  CANDIDATES.evm[WALLET_PRIMITIVE] = (i) => SIGNATURE_PRIMITIVES.evm(KEYS[i], DIGESTS[i]);
  CANDIDATES.sol[WALLET_PRIMITIVE] = (i) => SIGNATURE_PRIMITIVES.sol(KEYS[i], SOL_MESSAGES[i]);
  CANDIDATES.sui[WALLET_PRIMITIVE] = (i) => SIGNATURE_PRIMITIVES.sui(KEYS[i], DIGESTS[i]);
} catch {
  // Not compiled: the candidates alone.
}
const ED_OBJECTS = KEYS.map(ed25519KeyObject);

/** The wallet's own output for signature i (chains/signature-primitives.ts, reproduced with @noble/curves). */
const REFERENCE = {
  evm: CANDIDATES.evm['@noble/curves secp256k1 (precompute(8) warmed)'],
  sol: CANDIDATES.sol['@noble/curves ed25519 (precompute(8) warmed)'],
  sui: CANDIDATES.sui['@noble/curves ed25519 (precompute(8) warmed; signature and public key)'],
};

/** Every candidate checked on every key before it is timed: the same bytes, or (OpenSSL's ECDSA) a valid signature. */
function check() {
  const notes = {};
  for (const [chain, candidates] of Object.entries(CANDIDATES)) {
    for (const [name, candidate] of Object.entries(candidates)) {
      let same = 0;
      let deterministic = true;
      for (let i = 0; i < KEYS.length; i += 1) {
        const made = candidate(i);
        if (Buffer.from(made).equals(Buffer.from(REFERENCE[chain](i)))) {
          same += 1;
        } else if (name.startsWith('node:crypto ECDSA')) {
          const publicKey = createPublicKey(secp256k1KeyObject(KEYS[i]));
          if (!verify('sha256', DIGESTS[i], { key: publicKey, dsaEncoding: 'ieee-p1363' }, made)) throw new Error(`${name}: signature ${i} does not verify`);
          if (Buffer.from(candidate(i)).equals(Buffer.from(made))) throw new Error(`${name}: two signatures alike`);
          deterministic = false;
        } else {
          throw new Error(`${name}: signature ${i} differs from the wallet's`);
        }
      }
      notes[`${chain}|${name}`] = deterministic ? `equal to the wallet's on all ${same} keys` : `verifies on all ${KEYS.length} keys; a second signature of the same digest differs (random nonce)`;
    }
  }
  return notes;
}

/** Signatures for `ms`, cycling through the keys; µs of CPU per signature. */
function turn(candidate, ms) {
  const cpu = process.cpuUsage();
  const until = performance.now() + ms;
  let made = 0;
  while (performance.now() < until) {
    for (let j = 0; j < 16; j += 1) candidate((made + j) & 255);
    made += 16;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / made;
}

secp256k1.utils.precompute(8);
ed25519.utils.precompute(8);
const notes = check();
const rows = [];
for (const [chain, candidates] of Object.entries(CANDIDATES)) {
  const names = Object.keys(candidates);
  const turns = new Map(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length];
      turns.get(name).push(turn(candidates[name], TURN_MS));
    }
  }
  for (const name of names) {
    const sorted = [...turns.get(name)].sort((a, b) => a - b);
    const micros = sorted[Math.floor(sorted.length / 2)];
    rows.push({ chain, name, micros: Math.round(micros * 10) / 10, perSecond: Math.round(1e6 / micros), spread: [Math.round(sorted[0] * 10) / 10, Math.round(sorted.at(-1) * 10) / 10], check: notes[`${chain}|${name}`] });
  }
}
const result = { node: process.version, nobleCurves: JSON.parse(readFileSync(require.resolve('@noble/curves/secp256k1').replace(/secp256k1\.js$/, 'package.json'), 'utf8')).version, libsecp256k1: libsecp256k1Version ?? `not loaded: ${libsecp256k1Error}`, rounds: ROUNDS, turnMs: TURN_MS, rows };
if (args.json) {
  console.log(JSON.stringify(result));
} else {
  console.log(`Node ${result.node} · @noble/curves ${result.nobleCurves} · secp256k1 ${result.libsecp256k1} · ${ROUNDS} turns of ${TURN_MS} ms each, median\n`);
  console.log('| chain | primitive | µs CPU per signature | per second, one core | spread (µs) | check |\n|---|---|---:|---:|---|---|');
  for (const row of rows) console.log(`| ${row.chain} | ${row.name} | ${row.micros} | ${row.perSecond.toLocaleString('en-US')} | ${row.spread.join('–')} | ${row.check} |`);
}
