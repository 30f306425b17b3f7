'use strict';
// A game backend's webhook receiver for the `webhooks` benchmark, in a process of its own (its CPU is a column of
// its own, and it takes nothing from the load generator's event loop). It answers every delivery 204 at once and keeps
// one compact record per request: `webhook-id`, the event's type, game and subject (the player or the audit entry),
// the event's `timestamp` and when the request's body had arrived here. Every request's signature is checked with
// node:crypto (HMAC-SHA256 over `id.timestamp.body`, as Standard Webhooks defines it), and one request in
// SAMPLE_EVERY also with the `standardwebhooks` package, the reference the e2e suite uses, so a check of our own that
// agreed with a wrong signature would show. The runner sets the secret and reads the records over `/control/…`.
const { createHmac, timingSafeEqual } = require('node:crypto');
const { createServer } = require('node:http');
const { Webhook } = require('standardwebhooks');
const { serve } = require('../transport/common.cjs');

const SAMPLE_EVERY = 100;

serve(async () => {
  let key;
  let reference;
  /** One row per request: [webhook-id, type, gameId, subject, chain, event time (ms), received (ms), verified, reference-checked] */
  const records = [];
  let unsigned = 0;

  const verify = (id, timestamp, signature, body) => {
    if (key === undefined) return false;
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
    return signature.split(' ').some((entry) => {
      const [version, value] = entry.split(',', 2);
      const given = version === 'v1' && value !== undefined ? Buffer.from(value, 'base64') : Buffer.alloc(0);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  };
  const checkedByReference = (headers, body) => {
    try {
      reference.verify(body, headers);
      return 1;
    } catch {
      return -1;
    }
  };

  const control = (request, response, body) => {
    const { pathname: path, searchParams: query } = new URL(request.url, 'http://receiver');
    if (request.method === 'POST' && path === '/control/secret') {
      const { secret } = JSON.parse(body);
      key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      reference = new Webhook(secret);
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'GET' && path === '/control/count') {
      // With `from` and `to` (ms since the epoch), also the requests received between them (records are in arrival order).
      const from = Number(query.get('from') ?? 0);
      const to = Number(query.get('to') ?? 0);
      let between = 0;
      for (let index = records.length - 1; index >= 0 && records[index][6] >= from; index -= 1) {
        if (records[index][6] <= to) between += 1;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests: records.length, unsigned, between }));
      return;
    }
    if (request.method === 'GET' && path === '/control/records') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ records, unsigned }));
      return;
    }
    response.writeHead(404).end();
  };

  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      if (request.url.startsWith('/control/')) {
        control(request, response, body);
        return;
      }
      const id = request.headers['webhook-id'];
      const timestamp = request.headers['webhook-timestamp'];
      const signature = request.headers['webhook-signature'];
      if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
        unsigned += 1;
        response.writeHead(400).end();
        return;
      }
      const event = JSON.parse(body);
      const sampled = reference !== undefined && records.length % SAMPLE_EVERY === 0;
      records.push([
        id,
        event.type,
        event.gameId,
        event.data?.playerId ?? event.data?.auditId ?? null,
        event.data?.chain ?? null,
        Date.parse(event.timestamp),
        receivedAt,
        verify(id, timestamp, signature, body) ? 1 : 0,
        sampled ? checkedByReference({ 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, body) : 0,
      ]);
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
});
