import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ConfigError, key32Var } from './env-schema';
import { loadMigrationConfig, loadServiceConfig } from './service-config';

const spec = { service: 'wallet', portVariable: 'WALLET_PORT', defaultPort: 3102, databaseVariable: 'WALLET_DATABASE_URL' } as const;

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadServiceConfig(env, spec);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.problems;
    }
    throw error;
  }
  return [];
};

describe(loadServiceConfig.name, () => {
  it('applies the development defaults', () => {
    expect(loadServiceConfig({}, spec)).toEqual({
      nodeEnv: 'development',
      logLevel: 'info',
      port: 3102,
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/game_wallet',
      keyPrefix: 'gw',
      dataDir: '.data',
      transportKeys: { links: new Map(), shared: false },
      migrations: 'start',
      extra: {},
    });
  });

  it('leaves migrations to a migration job with MIGRATIONS=job, and refuses any other value', () => {
    expect(loadServiceConfig({ MIGRATIONS: 'job' }, spec).migrations).toBe('job');
    expect(() => loadServiceConfig({ MIGRATIONS: 'never' }, spec)).toThrow(/MIGRATIONS/);
  });

  it("reads the wallet's transport keys, a key per app it exchanges messages with", () => {
    const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');
    const keys = `gateway:t1=${key(1)},identity:t1=${key(2)},core:t1=${key(3)},wallet:t1=${key(4)}`;
    expect(loadServiceConfig({ TRANSPORT_HMAC_KEYS: keys }, spec).transportKeys).toEqual({
      links: new Map([
        ['gateway', { keys: new Map([['t1', Buffer.alloc(32, 1)]]), currentId: 't1' }],
        ['identity', { keys: new Map([['t1', Buffer.alloc(32, 2)]]), currentId: 't1' }],
        ['core', { keys: new Map([['t1', Buffer.alloc(32, 3)]]), currentId: 't1' }],
        ['wallet', { keys: new Map([['t1', Buffer.alloc(32, 4)]]), currentId: 't1' }],
      ]),
      shared: false,
    });
    expect(() => loadServiceConfig({ TRANSPORT_HMAC_KEYS: `k1=${Buffer.alloc(16).toString('base64')}` }, spec)).toThrow(/TRANSPORT_HMAC_KEYS: entry 1: the key must be at least 32 bytes/);
  });

  it("prefers the service's own database URL over DATABASE_URL", () => {
    const config = loadServiceConfig({ DATABASE_URL: 'postgres://a/shared', WALLET_DATABASE_URL: 'postgres://b/own' }, spec);
    expect(config.databaseUrl).toBe('postgres://b/own');
  });

  it('reports one line per bad variable, naming it', () => {
    const problems = problemsOf({ WALLET_PORT: 'abc', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        'WALLET_PORT: must be a port number from 1 to 65535',
        'REDIS_URL: must be a redis:// or rediss:// URL',
        expect.stringMatching(/^LOG_LEVEL: must be one of fatal, error, warn, info/),
      ]),
    );
  });

  it('never echoes a value, which may be a secret', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('never echoes a malformed TRANSPORT_HMAC_KEYS or 32-byte key, whatever its shape', () => {
    const secret = 'c2VjcmV0LWtleS1tYXRlcmlhbA'; // 19 bytes: too short for a key
    const shapes = [`k1=${secret}`, `${secret}=k1`, secret, `k1=${secret},k1=${secret}`, `{"k1":"${secret}"}`, `k1=${secret}=`, ` = ${secret}`];
    for (const value of shapes) {
      const problems = problemsOf({ TRANSPORT_HMAC_KEYS: value });
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.join('\n')).not.toContain(secret.slice(0, 12));
    }
    const withKey = { ...spec, extra: { IDENTITY_KEY_ENCRYPTION_KEY: key32Var() } };
    for (const value of [secret, `${secret}==`, `0x${secret}`]) {
      const failure = (() => {
        try {
          loadServiceConfig({ IDENTITY_KEY_ENCRYPTION_KEY: value }, withKey);
        } catch (error) {
          return error as ConfigError;
        }
        return undefined;
      })();
      expect(failure?.problems).toEqual(['IDENTITY_KEY_ENCRYPTION_KEY: must be 32 bytes, base64-encoded']);
      expect(String(failure?.message)).not.toContain(secret.slice(0, 12));
    }
  });

  it('refuses a NODE_EXTRA_CA_CERTS that is not a readable file, naming it', () => {
    expect(problemsOf({ NODE_EXTRA_CA_CERTS: join(tmpdir(), 'no-such-ca.pem') })).toEqual(['NODE_EXTRA_CA_CERTS: must be the path of a readable PEM file']);
    expect(problemsOf({ NODE_EXTRA_CA_CERTS: tmpdir() })).toEqual(['NODE_EXTRA_CA_CERTS: must be the path of a readable PEM file']);
    const file = join(mkdtempSync(join(tmpdir(), 'gwt-ca-')), 'ca.pem');
    writeFileSync(file, '-----BEGIN CERTIFICATE-----\n');
    expect(problemsOf({ NODE_EXTRA_CA_CERTS: file })).toEqual([]);
    rmSync(dirname(file), { recursive: true, force: true });
  });

  it('refuses the development defaults in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toEqual([
      'TRANSPORT_HMAC_KEYS: must be set when NODE_ENV=production',
      'DATABASE_URL: must be set (or WALLET_DATABASE_URL) when NODE_ENV=production',
      'REDIS_URL: must be set (or REDIS_SENTINELS) when NODE_ENV=production',
    ]);
  });

  it("validates the service's own variables with the common ones, and requires them in production when asked", () => {
    const withExtra = { ...spec, extra: { JWT_ISSUER: z.string().default('game-wallet') }, requiredInProduction: ['SECRET_THING'] };
    expect(loadServiceConfig({}, withExtra).extra).toEqual({ JWT_ISSUER: 'game-wallet' });
    const keys = ['gateway', 'identity', 'core', 'wallet'].map((peer) => `${peer}:t1=${Buffer.alloc(32, 1).toString('base64')}`).join(',');
    expect(() => loadServiceConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r', TRANSPORT_HMAC_KEYS: keys }, withExtra)).toThrow(
      'SECRET_THING: must be set when NODE_ENV=production',
    );
  });

  it('starts in production when everything is given', () => {
    const config = loadServiceConfig(
      {
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://db/x',
        REDIS_URL: 'redis://r:6379',
        TRANSPORT_HMAC_KEYS: ['gateway', 'identity', 'core', 'wallet'].map((peer) => `${peer}:t1=${Buffer.alloc(32, 1).toString('base64')}`).join(','),
      },
      spec,
    );
    expect(config.nodeEnv).toBe('production');
  });
});

describe('loadMigrationConfig', () => {
  it("reads only the service's database URL, so a migration job needs none of the service's keys", () => {
    const config = loadMigrationConfig({ NODE_ENV: 'production', WALLET_DATABASE_URL: 'postgres://gw_wallet@db:5432/game_wallet' }, 'WALLET_DATABASE_URL');
    expect(config).toEqual({ nodeEnv: 'production', databaseUrl: 'postgres://gw_wallet@db:5432/game_wallet' });
  });

  it('refuses to run in production without a database URL', () => {
    expect(() => loadMigrationConfig({ NODE_ENV: 'production' }, 'WALLET_DATABASE_URL')).toThrow(/DATABASE_URL: must be set \(or WALLET_DATABASE_URL\)/);
  });
});
