import { REDIS_ACL_APPS, RedisAclApp, redisAclRules } from '@game-wallet/transport';
import {
  AppName,
  PrivatePostgres,
  PrivateRedis,
  REPO_ROOT,
  TestPlatform,
  consoleToken,
  createGame,
  createKey,
  createPlayer,
  http,
  profileJwt,
  queryOnce,
  steppedUpCall,
  waitFor,
} from '@game-wallet/testing';
import Redis from 'ioredis';
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * The platform as docs/security.md runs it: each app connects to Redis over TLS as an ACL user of its own (rules
 * from `redisAclRules`, which docs/security.md, the compose file and the k8s docs print), and each app to PostgreSQL
 * as a role that owns only its schema (`deploy/postgres/roles.sql`), the gateway's being `gateway`.
 */
describe('the platform under least-privilege credentials', () => {
  const prefix = 'gw-lp';
  const redisPasswords = Object.fromEntries(REDIS_ACL_APPS.map((app) => [app, randomBytes(12).toString('hex')])) as Record<RedisAclApp, string>;
  const dbPasswords = Object.fromEntries(REDIS_ACL_APPS.map((app) => [app, randomBytes(12).toString('hex')])) as Record<AppName, string>;
  let redis: PrivateRedis;
  let postgres: PrivatePostgres;
  let admin: Redis;
  let platform: TestPlatform;

  const roleUrl = (app: AppName): string => postgres.url('game_wallet').replace('postgres@', `gw_${app}:${dbPasswords[app]}@`);
  const asUser = async (app: RedisAclApp): Promise<Redis> => {
    const connection = new Redis(redis.tlsUrl(app, redisPasswords[app]), { lazyConnect: true, maxRetriesPerRequest: 0, tls: { ca: readFileSync(redis.caFile) } });
    await connection.connect();
    return connection;
  };
  const aclDenials = async (): Promise<string[]> =>
    ((await admin.call('ACL', 'LOG')) as unknown[][]).map((entry) => {
      const fields = Object.fromEntries(Array.from({ length: entry.length / 2 }, (_, index) => [entry[index * 2], entry[index * 2 + 1]]));
      return `${String(fields.username)}: ${String(fields.reason)} ${String(fields.object)}`;
    });

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([PrivateRedis.start({ tls: true }), PrivatePostgres.start()]);
    await queryOnce(postgres.url(), 'CREATE DATABASE game_wallet');
    // As an earlier version left it: identity's schema made by the superuser, with TypeORM's migrations table (serial).
    await queryOnce(postgres.url('game_wallet'), 'CREATE SCHEMA identity; CREATE TABLE identity.migrations (id SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, name varchar NOT NULL)');
    await runRolesScript(postgres.url('game_wallet'), dbPasswords);
    await runRolesScript(postgres.url('game_wallet'), dbPasswords); // idempotent
    admin = new Redis(redis.url);
    for (const app of REDIS_ACL_APPS) {
      await admin.call('ACL', 'SETUSER', app, 'on', `>${redisPasswords[app]}`, ...redisAclRules(app, prefix));
    }
    const own = (app: AppName, database: string): Record<string, string> => ({ REDIS_URL: redis.tlsUrl(app, redisPasswords[app]), [database]: roleUrl(app) });
    platform = await TestPlatform.start('least-privilege', {
      postgresAdminUrl: postgres.url(),
      databaseName: 'game_wallet',
      redisUrl: redis.url,
      keyPrefix: prefix,
      env: { NODE_EXTRA_CA_CERTS: redis.caFile },
      appEnv: {
        gateway: own('gateway', 'GATEWAY_DATABASE_URL'),
        identity: own('identity', 'IDENTITY_DATABASE_URL'),
        wallet: own('wallet', 'WALLET_DATABASE_URL'),
        core: own('core', 'CORE_DATABASE_URL'),
      },
    });
  });

  afterAll(async () => {
    await platform?.stop();
    admin?.disconnect();
    await Promise.all([redis?.destroy(), postgres?.destroy()]);
  });

  it('runs a whole game flow over TLS with no Redis command refused', async () => {
    const token = await consoleToken(platform);
    const game = await createGame(platform, token);
    const player = await createPlayer(platform, game.key);
    // with its profile, which the wallet service asks identity for
    const wallet = await http<{ profile?: { id: string } }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}?include=profile`, { apiKey: game.key });
    expect(wallet.status).toBe(200);
    expect(wallet.body.profile?.id).toBe(player.profileId);
    for (const chain of ['evm', 'sol', 'sui']) {
      const signed = await http('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain, message: 'hello' } });
      expect(signed.status).toBe(200);
    }
    const jwt = await profileJwt(platform, player.profileId, game.key);
    expect((await http('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { bearer: jwt })).status).toBe(200);
    // Signed requests: the gateway takes each nonce once in Redis (its user may SET those keys, nothing more).
    const pair = generateKeyPairSync('ed25519');
    const keyUrl = `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${game.keyId}`;
    const registered = await steppedUpCall<{ id: string }>(platform, token, 'POST', `${keyUrl}/signing-keys`, { publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }) });
    expect(registered.status).toBe(201);
    expect((await steppedUpCall(platform, token, 'PATCH', keyUrl, { signedRequests: 'signing' })).status).toBe(200);
    const url = `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`;
    const body = JSON.stringify({ chain: 'evm', message: 'signed' });
    const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
    const params = `("@method" "@target-uri" "x-api-key" "content-digest");created=${Math.floor(Date.now() / 1000)};nonce="${randomBytes(16).toString('hex')}";keyid="${registered.body.id}"`;
    const base = `"@method": POST\n"@target-uri": ${url}\n"x-api-key": ${game.key}\n"content-digest": ${digest}\n"@signature-params": ${params}`;
    const headers = { 'x-api-key': game.key, 'content-type': 'application/json', 'content-digest': digest, 'signature-input': `sig=${params}`, signature: `sig=:${sign(null, Buffer.from(base), pair.privateKey).toString('base64')}:`, 'idempotency-key': '"least-privilege-1"' };
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(401); // the same nonce again
    expect((await http<{ code: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: 'plain' } })).body.code).toBe('SIGNATURE_REQUIRED');
    const deleted = await http('DELETE', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${game.keyId}?revokeTokens=true`, { bearer: token });
    expect(deleted.status).toBe(204);
    expect((await http<{ code: string }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { bearer: jwt })).body.code).toBe('TOKEN_REVOKED');
    expect((await http<{ code: string }>('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: game.key })).status).toBe(401);
    expect((await http('GET', `${platform.baseUrl}/v1/health`)).status).toBe(200);
    expect(await aclDenials()).toEqual([]);
  });

  it("refuses each app's Redis user every key, channel and command it does not need", async () => {
    const refused = async (app: RedisAclApp, ...command: string[]): Promise<string> => {
      const connection = await asUser(app);
      try {
        await connection.call(command[0], ...command.slice(1));
        return 'allowed';
      } catch (error) {
        return String(error).includes('NOPERM') ? 'refused' : String(error);
      } finally {
        connection.disconnect();
      }
    };
    const attempts: [RedisAclApp, string[]][] = [
      ['gateway', ['XRANGE', `${prefix}:rpc:wallet`, '-', '+']],
      ['gateway', ['SET', `${prefix}:api-key:abc`, '{}']],
      ['gateway', ['PUBLISH', `${prefix}:events:revocations`, '{}']],
      ['wallet', ['GET', `${prefix}:api-key:abc`]],
      ['wallet', ['XADD', `${prefix}:rpc:core`, '*', 'r', 'x']],
      ['wallet', ['XREADGROUP', 'GROUP', 'identity', 'x', 'STREAMS', `${prefix}:rpc:identity`, '>']],
      ['wallet', ['SUBSCRIBE', `${prefix}:reply:gateway-x`]],
      ['core', ['PUBLISH', `${prefix}:events:api-keys`, 'x']],
      ['core', ['XADD', `${prefix}:rpc:core`, '*', 'r', 'x']],
      ['identity', ['SET', `${prefix}:rate:x`, '1']],
      ['identity', ['XADD', `${prefix}:rpc:wallet`, '*', 'r', 'x']],
      ['identity', ['GET', `other-platform:api-key:abc`]],
      ...REDIS_ACL_APPS.flatMap((app): [RedisAclApp, string[]][] => [
        [app, ['KEYS', '*']],
        [app, ['FLUSHALL']],
        [app, ['CONFIG', 'GET', 'requirepass']],
        [app, ['ACL', 'LIST']],
        [app, ['CLIENT', 'LIST']],
      ]),
    ];
    for (const [app, command] of attempts) {
      expect(`${app} ${command.join(' ')}: ${await refused(app, ...command)}`).toBe(`${app} ${command.join(' ')}: refused`);
    }
  });

  it('gives each app only its own schema', async () => {
    const as = async (app: AppName, sql: string): Promise<string> => {
      const client = new Client({ connectionString: roleUrl(app) });
      await client.connect();
      try {
        await client.query(sql);
        return 'allowed';
      } catch (error) {
        return (error as { code?: string }).code === '42501' ? 'denied' : String(error);
      } finally {
        await client.end();
      }
    };
    const cases: [AppName, string, string][] = [
      ['identity', 'SELECT count(*) FROM identity.operators', 'allowed'],
      ['identity', "SELECT nextval('identity.migrations_id_seq')", 'allowed'],
      ['wallet', 'SELECT count(*) FROM wallet.wallets', 'allowed'],
      ['wallet', 'SELECT count(*) FROM identity.operators', 'denied'],
      ['wallet', 'SELECT count(*) FROM core.players', 'denied'],
      ['core', 'SELECT count(*) FROM wallet.wallets', 'denied'],
      ['core', 'SELECT count(*) FROM identity.api_keys', 'denied'],
      ['identity', 'SELECT count(*) FROM wallet.wallets', 'denied'],
      ['gateway', 'SELECT count(*) FROM identity.api_keys', 'denied'],
      ['gateway', 'SELECT count(*) FROM wallet.wallets', 'denied'],
      // migrated by the gateway as it started, as gw_gateway
      ['gateway', 'SELECT count(*) FROM gateway.idempotency_keys', 'allowed'],
      ['gateway', 'CREATE TABLE gateway.owned_probe (id int); DROP TABLE gateway.owned_probe', 'allowed'],
      ['identity', 'SELECT count(*) FROM gateway.idempotency_keys', 'denied'],
      ['identity', 'CREATE TABLE public.stray (id int)', 'denied'],
      ['core', 'CREATE SCHEMA stray', 'denied'],
      ['gateway', 'CREATE TABLE public.stray (id int)', 'denied'],
      ['gateway', 'CREATE SCHEMA stray', 'denied'],
    ];
    for (const [app, sql, expected] of cases) {
      expect(`${app}: ${sql}: ${await as(app, sql)}`).toBe(`${app}: ${sql}: ${expected}`);
    }
  });

  it('answers 503 when the broadcast of a revocation or a key change fails, and both still apply within 30 s', async () => {
    const token = await consoleToken(platform);
    const game = await createGame(platform, token, 'Refused broadcast');
    const player = await createPlayer(platform, game.key);
    const jwt = await profileJwt(platform, player.profileId, game.key);
    const spare = await createKey(platform, token, game.gameId, 'spare');
    expect((await http('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: spare.key })).status).toBe(200);
    const withoutEvents = redisAclRules('identity', prefix).filter((rule) => !rule.includes(':events:'));
    await admin.call('ACL', 'SETUSER', 'identity', 'clearselectors', ...withoutEvents.filter((rule) => rule.startsWith('(')));
    try {
      const revoked = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/${player.profileId}/revoke`, { apiKey: game.key, body: {} });
      expect(revoked.status).toBe(503);
      expect(revoked.body.code).toBe('SERVICE_UNAVAILABLE');
      const deactivated = await http<{ code: string }>('PATCH', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${spare.keyId}`, {
        bearer: token,
        body: { active: false },
      });
      expect(deactivated.status).toBe(503);
    } finally {
      await admin.call('ACL', 'SETUSER', 'identity', 'clearselectors', ...redisAclRules('identity', prefix).filter((rule) => rule.startsWith('(')));
    }
    await Promise.all([
      waitFor(
        async () => (await http<{ code?: string }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { bearer: jwt })).body.code === 'TOKEN_REVOKED',
        35_000,
        'the revocation to apply without its broadcast',
        250,
      ),
      waitFor(
        async () => (await http<{ code?: string }>('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: spare.key })).body.code === 'API_KEY_INACTIVE',
        35_000,
        'the deactivated key to be refused without its broadcast',
        250,
      ),
    ]);
  }, 60_000);
});

/** Runs deploy/postgres/roles.sql as psql would with `-v <app>_password=…` (its only psql feature: `:'name'`). */
async function runRolesScript(adminUrl: string, passwords: Record<AppName, string>): Promise<void> {
  const script = readFileSync(join(REPO_ROOT, 'deploy/postgres/roles.sql'), 'utf8').replace(/:'(\w+)_password'/g, (_, app: AppName) => `'${passwords[app]}'`);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end();
  }
}
