// Profile JWT signing and verification: node:crypto (compact serialization by hand) against jose, ES256.
// Run: node bench/jwt/sign-verify.mjs — writes bench/results/jwt.md.
import { generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { SignJWT, jwtVerify } from 'jose';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const kid = 'bench-key';
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = b64({ alg: 'ES256', kid, typ: 'JWT' });
const claims = () => {
  const iat = Math.floor(Date.now() / 1000);
  return { iss: 'game-wallet', aud: 'game-wallet:profile', sub: randomUUID(), app: randomUUID(), iat, exp: iat + 3600, jti: randomUUID() };
};

function signNode() {
  const input = `${header}.${b64(claims())}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}
const signJose = () => new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey);

function verifyNode(token) {
  const dot = token.lastIndexOf('.');
  return verify('sha256', Buffer.from(token.slice(0, dot)), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(token.slice(dot + 1), 'base64url'));
}
const verifyJose = (token) => jwtVerify(token, publicKey, { algorithms: ['ES256'], audience: 'game-wallet:profile', issuer: 'game-wallet' });

async function rate(name, fn, ms = 2000) {
  for (let i = 0; i < 2000; i += 1) await fn();
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 200; i += 1) await fn();
    n += 200;
  }
  const perSecond = Math.round(n / (ms / 1000));
  console.log(`${name}: ${perSecond.toLocaleString('en-US')} ops/s (${(1e6 / perSecond).toFixed(1)} µs/op)`);
  return perSecond;
}

const token = signNode();
const results = {
  signNode: await rate('sign   node:crypto', signNode),
  signJose: await rate('sign   jose       ', signJose),
  verifyNode: await rate('verify node:crypto', () => verifyNode(token)),
  verifyJose: await rate('verify jose       ', () => verifyJose(token)),
};
mkdirSync('bench/results', { recursive: true });
const row = (what, node, jose) => `| ${what} | ${node.toLocaleString('en-US')} | ${jose.toLocaleString('en-US')} | ${(node / jose).toFixed(2)}× |`;
writeFileSync(
  'bench/results/jwt.md',
  [
    '# ES256 profile JWT: node:crypto vs jose',
    '',
    `${new Date().toISOString()} · ${os.cpus()[0]?.model?.trim()} × ${os.cpus().length} · Node ${process.version} · one core, single thread`,
    '',
    '| operation | node:crypto ops/s | jose ops/s | node ÷ jose |',
    '|---|---:|---:|---:|',
    row('sign', results.signNode, results.signJose),
    row('verify (signature only for node:crypto; jose also checks claims)', results.verifyNode, results.verifyJose),
    '',
  ].join('\n'),
);
