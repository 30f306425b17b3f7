// The `signed-requests` scenarios: wallet reads and `/sign` with an API key that requires RFC 9421 signatures on every
// route (`signedRequests: 'all'`, one Ed25519 signing key), each paired with the same route with a plain key of a
// second game of the same platform. The load generator signs every request as it builds it (a fresh nonce, the current
// `created`, the body's Content-Digest): on autocannon's thread, or (`-pool`) on a pool of worker threads a few
// requests ahead. Before the pairs, the key is shown to refuse an unsigned read and to take a signed one.
import { createPrivateKey } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { json, measure, pairedRounds } from '../lib/platform.mjs';
import { SigningPool, ed25519Key, signedHeaders, signingMicros } from './signer.mjs';

/** The scenarios of the set, by name: the route, the chain for `/sign`, and whether the pool signs. */
export const SIGNED_SCENARIOS = {
  'signed-read': { route: 'read' },
  'signed-sign-evm': { route: 'sign', chain: 'evm' },
  'signed-sign-sol': { route: 'sign', chain: 'sol' },
  'signed-read-pool': { route: 'read', pool: true },
  'signed-sign-evm-pool': { route: 'sign', chain: 'evm', pool: true },
};

/** An HTTP call answering its status and JSON body. */
async function call(method, url, body, headers = {}) {
  const response = await fetch(url, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A console call that needs a fresh second factor: stepped up with the operator's password when asked, then again. */
async function steppedUp(platform, token, method, url, body) {
  const headers = { authorization: `Bearer ${token}` };
  const first = await call(method, url, body, headers);
  if (first.status !== 401 || first.body?.code !== 'STEP_UP_REQUIRED') {
    return first;
  }
  await call('POST', `${platform.baseUrl}/v1/console/session/step-up`, { password: platform.consoleOperator().password }, headers);
  return call(method, url, body, headers);
}

/** Fails the benchmark when `response` is not `status` (a set-up step that did not do what the pairs rely on). */
function expectStatus(response, status, what) {
  if (response.status !== status) {
    throw new Error(`signed-requests: ${what} answered ${response.status} ${JSON.stringify(response.body)}, not ${status}`);
  }
  return response.body;
}

/**
 * Runs the pairs of `names` (keys of {@link SIGNED_SCENARIOS}) on `platform`; `record(name, result)` is awaited after
 * each scenario. Resolves with the set's own figures: the signing key, the pool's size, the checks made before the
 * pairs, and the client's signing cost on this thread.
 */
export async function signedScenarios(platform, names, { rounds, duration, warmup, pairedResult, record }) {
  const plain = await platform.game();
  const signed = await platform.game();
  const plainPlayer = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-plain' }, { 'x-api-key': plain.key });
  // Made before the key requires signatures (player creation would need one after).
  const signedPlayer = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-signed' }, { 'x-api-key': signed.key });
  const key = ed25519Key();
  const keyUrl = `${platform.baseUrl}/v1/console/games/${signed.gameId}/api-keys/${signed.keyId}`;
  const signingKey = expectStatus(await steppedUp(platform, signed.operatorToken, 'POST', `${keyUrl}/signing-keys`, { name: 'bench', publicKey: key.publicJwk }), 201, 'registering the signing key');
  expectStatus(await steppedUp(platform, signed.operatorToken, 'PATCH', keyUrl, { signedRequests: 'all' }), 200, 'requiring signed requests');

  const shape = (game, player, route, chain) => {
    const url = `${platform.baseUrl}/v1/wallet/${player.walletId}${route === 'read' ? '' : '/sign'}`;
    return route === 'read'
      ? { method: 'GET', url, apiKey: game.key, keyid: signingKey.id }
      : { method: 'POST', url, apiKey: game.key, keyid: signingKey.id, body: JSON.stringify({ chain, message: 'bench message' }) };
  };
  const headersOf = (request) => ({ 'x-api-key': request.apiKey, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) });

  // The key now refuses an unsigned read (the gateway learns of the change by broadcast: asked until it has) and
  // takes a signed read and a signed /sign: every 2xx of the signed side below was a verified signature.
  const readShape = shape(signed, signedPlayer, 'read');
  const unsignedRead = async () => call('GET', readShape.url, undefined, headersOf(readShape));
  let refused = await unsignedRead();
  for (let attempt = 0; attempt < 50 && refused.status !== 401; attempt += 1) {
    await sleep(100);
    refused = await unsignedRead();
  }
  if (refused.body?.code !== 'SIGNATURE_REQUIRED') {
    throw new Error(`signed-requests: an unsigned read with the signing-required key answered ${refused.status} ${JSON.stringify(refused.body)}`);
  }
  const signShape = shape(signed, signedPlayer, 'sign', 'evm');
  const checks = {
    unsignedRead: `${refused.status} ${refused.body.code}`,
    signedRead: (await call('GET', readShape.url, undefined, { ...headersOf(readShape), ...signedHeaders(readShape, key.privateKey) })).status,
    signedSign: (await call('POST', signShape.url, JSON.parse(signShape.body), { ...headersOf(signShape), ...signedHeaders(signShape, key.privateKey) })).status,
  };
  if (checks.signedRead !== 200 || checks.signedSign !== 200) {
    throw new Error(`signed-requests: signed requests were refused: ${JSON.stringify(checks)}`);
  }

  const threads = availableParallelism();
  const pool = names.some((name) => SIGNED_SCENARIOS[name].pool) ? new SigningPool(threads, key.privateKeyPem) : undefined;
  const privateKey = createPrivateKey(key.privateKeyPem);
  const clientMicros = {
    read: signingMicros(readShape, privateKey),
    sign: signingMicros(signShape, privateKey),
  };
  /** Signed requests built over every run (warm-ups included): what the gateway checked. */
  let signaturesMade = 0;
  try {
    for (const name of names) {
      console.log(`--- ${name}`);
      const scenario = SIGNED_SCENARIOS[name];
      const label = scenario.route === 'read' ? 'GET /v1/wallet/{id}' : `POST /v1/wallet/{id}/sign, ${scenario.chain}`;
      const plainRequest = shape(plain, plainPlayer, scenario.route, scenario.chain);
      const signedRequest = shape(signed, signedPlayer, scenario.route, scenario.chain);
      const plainSide = { name: `${label}, plain key`, options: { url: plainRequest.url, method: plainRequest.method, headers: headersOf(plainRequest), body: plainRequest.body } };
      const source = scenario.pool ? pool.source(signedRequest) : undefined;
      const signing = () => {
        signaturesMade += 1;
        return source ? source.take() : signedHeaders(signedRequest, privateKey);
      };
      const signedOptions = {
        url: signedRequest.url,
        requests: [{ method: signedRequest.method, headers: headersOf(signedRequest), body: signedRequest.body, setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...signing() } }) }],
      };
      const how = scenario.pool ? `signed on ${threads} worker threads` : 'signed on the load generator’s thread';
      const signedSide = {
        name: `${label}, key requiring signatures (Ed25519, ${how})`,
        run: async (round) => {
          source?.reset();
          const row = await measure(`${label}, signed (${how}), round ${round}`, signedOptions, duration, warmup);
          return source ? { ...row, pool: source.stats() } : row;
        },
      };
      const measured = await pairedRounds(plainSide, signedSide, { rounds, duration, warmup });
      await record(name, {
        ...pairedResult(`${label}, key requiring Ed25519 signatures on every route, ${how}`, 'the same, a plain key', measured),
        route: scenario.route,
        ...(scenario.pool ? { pool: { threads, ...measured.median.b.pool } } : {}),
        clientSignMicros: clientMicros[scenario.route],
      });
    }
  } finally {
    await pool?.close();
  }
  return { signingKeyId: signingKey.id, algorithm: signingKey.algorithm, checks, clientSignMicros: clientMicros, poolThreads: threads, signaturesMade };
}
