import { ConfigError } from './env-schema';
import { parseSentinels, redisTargetOf } from './redis-target';
import { loadServiceConfig } from './service-config';

const spec = { service: 'core', portVariable: 'CORE_SERVICE_PORT', defaultPort: 3103, databaseVariable: 'CORE_DATABASE_URL' } as const;

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

describe(redisTargetOf.name, () => {
  it('is the plain REDIS_URL without Sentinels', () => {
    expect(loadServiceConfig({ REDIS_URL: 'redis://r:6379' }, spec).redisUrl).toBe('redis://r:6379');
  });

  it("follows the master set through REDIS_SENTINELS, with the data nodes' sign-in from REDIS_URL and the Sentinels' own", () => {
    const config = loadServiceConfig(
      {
        REDIS_URL: 'rediss://core:node-secret@mymaster/2',
        REDIS_SENTINELS: 'redis-sentinel-0:26379, 10.0.0.7:26380,[fd00::1]:26379',
        REDIS_SENTINEL_MASTER: 'mymaster',
        REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
        REDIS_SENTINEL_TLS: 'true',
      },
      spec,
    );
    expect(config.redisUrl).toEqual({
      url: 'rediss://core:node-secret@mymaster/2',
      sentinels: [
        { host: 'redis-sentinel-0', port: 26379 },
        { host: '10.0.0.7', port: 26380 },
        { host: 'fd00::1', port: 26379 },
      ],
      name: 'mymaster',
      sentinelUsername: undefined,
      sentinelPassword: 'sentinel-secret',
      sentinelTls: true,
    });
  });

  it('refuses a Sentinel entry that is not host:port, naming its position and not its value', () => {
    const problems = problemsOf({ REDIS_SENTINELS: 'a:26379,b,c:99999,:1', REDIS_SENTINEL_MASTER: 'm' });
    expect(problems).toEqual(['REDIS_SENTINELS: entry 2, 3, 4: must be host:port (a port from 1 to 65535), entries separated by commas']);
  });

  it('needs the master set with Sentinels, and Sentinels for the other Sentinel settings', () => {
    expect(problemsOf({ REDIS_SENTINELS: 'a:26379' })).toEqual(['REDIS_SENTINEL_MASTER: must be set with REDIS_SENTINELS (the master set to follow)']);
    expect(problemsOf({ REDIS_SENTINEL_MASTER: 'm', REDIS_SENTINEL_PASSWORD: 'p' })).toEqual([
      'REDIS_SENTINEL_MASTER: is set but REDIS_SENTINELS is not (set both, or neither)',
      'REDIS_SENTINEL_PASSWORD: is set but REDIS_SENTINELS is not (set both, or neither)',
    ]);
    expect(problemsOf({ REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_MASTER: 'm', REDIS_SENTINEL_TLS: 'yes' })).toEqual(['REDIS_SENTINEL_TLS: must be true or false']);
  });

  it('accepts REDIS_SENTINELS in place of REDIS_URL in production, and neither is refused', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' };
    expect(problemsOf(production)).toContain('REDIS_URL: must be set (or REDIS_SENTINELS) when NODE_ENV=production');
    expect(problemsOf({ ...production, REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_MASTER: 'm' }).filter((line) => line.startsWith('REDIS'))).toEqual([]);
  });
});

describe(parseSentinels.name, () => {
  it('reads host:port entries, IPv6 in brackets', () => {
    expect(parseSentinels('redis:26379,[::1]:26379')).toEqual({ sentinels: [{ host: 'redis', port: 26379 }, { host: '::1', port: 26379 }], bad: [] });
    expect(parseSentinels('[not-v6]:1,redis:0').bad).toEqual([1, 2]);
  });
});
