// A game backend's request signer (RFC 9421 HTTP Message Signatures with an RFC 9530 Content-Digest), as the
// benchmark's load generator runs it: Ed25519 by node:crypto, a fresh nonce and the current `created` for every
// request, built by hand (the same signature base as apps/gateway/test/signed-requests.e2e-spec.ts), none of the
// gateway's code. `signedHeaders` signs on the calling thread; `SigningPool` signs on worker threads
// (bench/signed-requests/signer-worker.mjs) a few requests ahead of sending them.
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** An Ed25519 key pair: the private key, and the public key as a JWK (what the console API registers). */
export function ed25519Key() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { kty, crv, x } = publicKey.export({ format: 'jwk' });
  return { privateKey, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }), publicJwk: { kty, crv, x } };
}

/** A P-256 key pair, as {@link ed25519Key} (the other algorithm a signing key may have: `ecdsa-p256-sha256`). */
export function p256Key() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }), publicJwk: { kty, crv, x, y } };
}

/**
 * The headers that sign one request: `Signature-Input` and `Signature` over `"@method" "@target-uri" "x-api-key"` and,
 * with a body, `"content-digest"` (sha-256 of the body, computed here each time as a client would); `created` is now,
 * the nonce 16 random bytes. `request` is `{ method, url, apiKey, body?, keyid, alg? }` (`alg` `ed25519`, the default,
 * or `ecdsa-p256-sha256`); `privateKey` a KeyObject of that algorithm.
 */
export function signedHeaders(request, privateKey) {
  const created = Math.floor(Date.now() / 1000);
  const nonce = randomBytes(16).toString('base64url');
  const digest = request.body ? `sha-256=:${createHash('sha256').update(request.body).digest('base64')}:` : undefined;
  const covered = digest ? '"@method" "@target-uri" "x-api-key" "content-digest"' : '"@method" "@target-uri" "x-api-key"';
  const alg = request.alg ?? 'ed25519';
  const params = `(${covered});created=${created};nonce="${nonce}";keyid="${request.keyid}";alg="${alg}"`;
  const base = Buffer.from(`"@method": ${request.method}\n"@target-uri": ${request.url}\n"x-api-key": ${request.apiKey}\n${digest ? `"content-digest": ${digest}\n` : ''}"@signature-params": ${params}`);
  const signature = (alg === 'ed25519' ? sign(null, base, privateKey) : sign('sha256', base, { key: privateKey, dsaEncoding: 'ieee-p1363' })).toString('base64');
  return digest === undefined
    ? { 'signature-input': `sig=${params}`, signature: `sig=:${signature}:` }
    : { 'signature-input': `sig=${params}`, signature: `sig=:${signature}:`, 'content-digest': digest };
}

/** CPU µs of one `signedHeaders` of `request` on this thread, over `seconds` (after a short warm-up). */
export function signingMicros(request, privateKey, seconds = 1) {
  for (let i = 0; i < 200; i += 1) signedHeaders(request, privateKey);
  const started = process.cpuUsage();
  const until = performance.now() + seconds * 1000;
  let signed = 0;
  while (performance.now() < until) {
    signedHeaders(request, privateKey);
    signed += 1;
  }
  const used = process.cpuUsage(started);
  return Math.round(((used.user + used.system) / signed) * 10) / 10;
}

/** Requests kept signed ahead of sending, per source, and how many one message to a worker asks for. */
const AHEAD = 32;
const BATCH = 8;

/**
 * Worker threads that sign for the load generator. autocannon builds each request synchronously just before sending
 * it, so a pool cannot sign "at send time": each source keeps up to {@link AHEAD} requests signed ahead, refilled
 * from the threads as they are taken, and signs on the main thread when none is ready (counted as `inline`). How long
 * a signature waited before it was sent is recorded, so the report can say how fresh they were.
 */
export class SigningPool {
  constructor(threads, privateKeyPem) {
    this.threads = threads;
    this.privateKey = createPrivateKey(privateKeyPem);
    this.workers = Array.from({ length: threads }, () => new Worker(new URL('./signer-worker.mjs', import.meta.url), { workerData: { privateKeyPem } }));
    this.next = 0;
    this.waiting = new Map();
    this.sequence = 0;
    for (const worker of this.workers) {
      worker.on('message', ({ id, items }) => {
        const resolve = this.waiting.get(id);
        this.waiting.delete(id);
        resolve?.(items);
      });
      worker.unref();
    }
  }

  /** `count` signed header sets of `request` from the next thread. */
  ask(request, count) {
    const id = (this.sequence += 1);
    const worker = this.workers[(this.next = (this.next + 1) % this.threads)];
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, request, count });
    });
  }

  /**
   * A source of signed headers for `request`: `take()` answers the oldest ready set (or signs one inline), `stats()`
   * how many came from the pool and inline, and the age of the pool's at sending (p50, p99, max, ms); `reset()`
   * drops what is ready and clears those counts (before a run).
   */
  source(request) {
    const ready = [];
    let asked = 0;
    let ages = [];
    let inline = 0;
    const refill = () => {
      while (ready.length + asked < AHEAD) {
        asked += BATCH;
        void this.ask(request, BATCH).then((items) => {
          asked -= BATCH;
          ready.push(...items);
        });
      }
    };
    refill();
    return {
      take: () => {
        const item = ready.shift();
        refill();
        if (item === undefined) {
          inline += 1;
          return signedHeaders(request, this.privateKey);
        }
        ages.push(Date.now() - item.madeAt);
        return item.headers;
      },
      reset: () => {
        // Signatures left from an earlier run are dropped: every request of a run is signed during it.
        ready.length = 0;
        refill();
        ages = [];
        inline = 0;
      },
      stats: () => {
        const sorted = [...ages].sort((a, b) => a - b);
        const at = (p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
        return { fromPool: sorted.length, inline, ageMs: { p50: at(50), p99: at(99), max: sorted.length === 0 ? 0 : sorted[sorted.length - 1] } };
      },
    };
  }

  async close() {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
