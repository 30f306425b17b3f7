#!/usr/bin/env node
// The gateway's request-signature check alone, in a process of its own, one thread: the compiled
// RequestSignatureVerifier (dist/out-tsc/libs/auth) verifying requests this benchmark's signer made (signer.mjs), with
// a nonce store that answers at once (the Redis SET NX is not in it), and each of its parts on the same requests: the
// two Structured Field dictionaries parsed, the signature base built by http-message-signatures, the Content-Digest
// hashed, the signature verification by node:crypto (Ed25519, and for comparison a P-256 key on a read); and the
// client's side, one request signed. µs of CPU per request, the median of 5 turns. `--json` prints the rows as JSON (bench/run.mjs reads them).
import { createHash, createPublicKey, sign, verify } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../lib/platform.mjs';
import { ed25519Key, p256Key, signedHeaders } from './signer.mjs';

const require = createRequire(import.meta.url);
const { RequestSignatureVerifier } = require(join(root, 'dist/out-tsc/libs/auth/src/request-signature'));
const { httpbis } = require('http-message-signatures');
const { parseDictionary, serializeItem, serializeInnerList } = require('structured-headers');

const TURNS = 5;
const TURN_MS = 300;
const BATCH = 2000;

/** The median over {@link TURNS} turns of CPU µs per call of `run(i)` (sync or async). */
async function micros(run) {
  const turns = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const started = process.cpuUsage();
    const until = performance.now() + TURN_MS;
    let calls = 0;
    while (performance.now() < until) {
      for (let i = 0; i < 100; i += 1) {
        const result = run(calls % BATCH);
        if (result instanceof Promise) await result;
        calls += 1;
      }
    }
    const used = process.cpuUsage(started);
    turns.push((used.user + used.system) / calls);
  }
  turns.sort((a, b) => a - b);
  return Math.round(turns[Math.floor(TURNS / 2)] * 10) / 10;
}

const keys = { ed25519: ed25519Key(), 'ecdsa-p256-sha256': p256Key() };
const keyid = (alg) => `bench-${alg}-thumbprint`.padEnd(43, '0');
const apiKey = `gk_${'k'.repeat(40)}`;
const resolved = {
  keyId: 'bench-key',
  applicationId: 'bench-game',
  active: true,
  signedRequests: 'all',
  signingKeys: Object.entries(keys).map(([alg, pair]) => ({ id: keyid(alg), algorithm: alg, publicKey: pair.publicJwk })),
};
const verifier = new RequestSignatureVerifier(async () => true);

const READ = '/v1/wallet/0190d5a8-4f6c-7cc2-9a1e-3b1f9d6c2e10';
const shapes = {
  'GET /v1/wallet/{id}': { method: 'GET', path: READ, alg: 'ed25519' },
  'POST /v1/wallet/{id}/sign': { method: 'POST', path: `${READ}/sign`, body: JSON.stringify({ chain: 'evm', message: 'bench message' }), alg: 'ed25519' },
  'GET /v1/wallet/{id}, P-256 key': { method: 'GET', path: READ, alg: 'ecdsa-p256-sha256' },
};

const rows = [];
for (const [name, shape] of Object.entries(shapes)) {
  const key = keys[shape.alg];
  const publicKey = createPublicKey({ key: key.publicJwk, format: 'jwk' });
  const primitive = shape.alg === 'ed25519' ? 'Ed25519' : 'ECDSA P-256';
  const verifyPrimitive = shape.alg === 'ed25519' ? (base, signature) => verify(null, base, publicKey, signature) : (base, signature) => verify('sha256', base, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  const signPrimitive = shape.alg === 'ed25519' ? (base) => sign(null, base, key.privateKey) : (base) => sign('sha256', base, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  const request = { method: shape.method, url: `http://127.0.0.1:3000${shape.path}`, apiKey, body: shape.body, keyid: keyid(shape.alg), alg: shape.alg };
  // Requests as Node hands them to the gateway: lower-case header names, the body's bytes.
  const messages = Array.from({ length: BATCH }, () => ({
    method: shape.method,
    targetUri: request.url,
    headers: {
      host: '127.0.0.1:3000',
      connection: 'keep-alive',
      'x-api-key': apiKey,
      ...(shape.body ? { 'content-type': 'application/json', 'content-length': String(shape.body.length) } : {}),
      ...signedHeaders(request, key.privateKey),
    },
    body: shape.body ? Buffer.from(shape.body) : undefined,
  }));
  for (const message of messages.slice(0, 10)) await verifier.verify(message, resolved);
  const inputs = messages.map((message) => parseDictionary(message.headers['signature-input']).get('sig'));
  const bases = messages.map((message, i) => {
    const lines = httpbis.createSignatureBase({ fields: inputs[i][0].map((item) => serializeItem(item)) }, { method: message.method, url: message.targetUri, headers: message.headers });
    lines.push(['"@signature-params"', [serializeInnerList(inputs[i])]]);
    return Buffer.from(httpbis.formatSignatureBase(lines));
  });
  const signatures = messages.map((message) => Buffer.from(parseDictionary(message.headers.signature).get('sig')[0]));
  rows.push({
    shape: name,
    verify: await micros((i) => verifier.verify(messages[i], resolved)),
    parts: {
      'Signature-Input and Signature parsed (structured-headers)': await micros((i) => {
        parseDictionary(messages[i].headers['signature-input']);
        parseDictionary(messages[i].headers.signature);
      }),
      'signature base built (http-message-signatures)': await micros((i) => {
        const lines = httpbis.createSignatureBase({ fields: inputs[i][0].map((item) => serializeItem(item)) }, { method: messages[i].method, url: messages[i].targetUri, headers: messages[i].headers });
        lines.push(['"@signature-params"', [serializeInnerList(inputs[i])]]);
        return Buffer.from(httpbis.formatSignatureBase(lines));
      }),
      ...(shape.body ? { 'Content-Digest parsed and the body hashed': await micros((i) => {
        parseDictionary(messages[i].headers['content-digest']);
        createHash('sha256').update(messages[i].body).digest();
      }) } : {}),
      'the signature verified (node:crypto, KeyObject cached)': await micros((i) => verifyPrimitive(bases[i], signatures[i])),
    },
    primitive,
    clientSign: await micros(() => signedHeaders(request, key.privateKey)),
    clientPrimitive: await micros((i) => signPrimitive(bases[i])),
  });
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ node: process.version, turns: TURNS, turnMs: TURN_MS, rows })}\n`);
} else {
  for (const row of rows) {
    process.stdout.write(`${row.shape}: verify ${row.verify} µs (${Object.entries(row.parts).map(([part, us]) => `${part} ${us}`).join('; ')}); client signs in ${row.clientSign} µs, of which ${row.primitive} ${row.clientPrimitive}\n`);
  }
}
