import { AppError } from '@game-wallet/contracts';
import { ScryptOptions, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt cost from OWASP's password storage list: N=2^15, r=8, p=3, which it lists as equivalent in defence to
 * N=2^17, r=8, p=1 but works in 32 MiB instead of 128 (about 160 ms per hash here), 32-byte output.
 */
const PARAMS = { N: 32768, r: 8, p: 3 };
const KEY_LENGTH = 32;
/** Parameters a stored hash may carry (older hashes are upgraded at their next sign-in); anything else is refused. */
const MAX_N = 1 << 20;
/**
 * Hashes computed at once: each takes 32 MiB outside the V8 heap, so a burst of sign-ins queues instead of exhausting
 * the pod's memory (identity's limit is 384 Mi in k8s/).
 */
const MAX_CONCURRENT = 1;
/** Hashes that may wait their turn; past them a sign-in is refused at once (503) rather than queued past its deadline. */
const MAX_WAITING = 24;

let running = 0;
const queue: (() => void)[] = [];

async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) {
    if (queue.length >= MAX_WAITING) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Too many sign-ins at once; try again in a moment');
    }
    await new Promise<void>((resolve) => queue.push(resolve));
  }
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    queue.shift()?.();
  }
}

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return oneAtATime(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

/** Whether a stored hash was made with other parameters than today's (it is replaced at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== PARAMS.N || Number(r) !== PARAMS.r || Number(p) !== PARAMS.p;
}

/** `scrypt$N$r$p$salt$hash` (base64), from a fresh 16-byte salt. Runs on the libuv pool, off the event loop. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time comparison against a stored hash; false for anything malformed. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !hash || !(params.N >= 2 && params.N <= MAX_N && params.r >= 1 && params.r <= 32 && params.p >= 1 && params.p <= 16)) {
    return false;
  }
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), params);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Hash of a random password: verified against when the e-mail is unknown, so timing does not tell who exists. */
export const DECOY_HASH_PROMISE = hashPassword(randomBytes(16).toString('hex'));
