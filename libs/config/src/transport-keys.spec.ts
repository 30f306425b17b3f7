import { AppName } from '@game-wallet/contracts';
import { z } from 'zod';
import { ConfigError, Env, parseEnv } from './env-schema';
import { checkTransportKeys, transportKeysEnvShape, transportKeysOf } from './transport-keys';

const key = (fill: number): string => Buffer.alloc(32, fill).toString('base64');
/** The gateway's keys: one per service, the same key id. */
const gatewayKeys = (id = 't1') => `identity:${id}=${key(1)},wallet:${id}=${key(2)},core:${id}=${key(3)}`;

const problemsOf = (app: AppName, env: Env): string[] => {
  try {
    parseEnv(
      z.object(transportKeysEnvShape).superRefine((_, context) => checkTransportKeys(app, env, context)),
      env,
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.problems;
    }
    throw error;
  }
  return [];
};

describe(checkTransportKeys.name, () => {
  it("takes an app's keys per peer, each link signing with its only key", () => {
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: gatewayKeys() })).toEqual([]);
    const config = transportKeysOf('gateway', { TRANSPORT_HMAC_KEYS: gatewayKeys() });
    expect([...config.links.keys()]).toEqual(['identity', 'wallet', 'core']);
    expect(config.links.get('wallet')).toEqual({ keys: new Map([['t1', Buffer.alloc(32, 2)]]), currentId: 't1' });
    expect(config.shared).toBe(false);
    // The JSON form too.
    expect(problemsOf('core', { TRANSPORT_HMAC_KEYS: JSON.stringify({ 'gateway:t1': key(1), 'identity:t1': key(2), 'wallet:t1': key(3) }) })).toEqual([]);
  });

  it('needs a key for every app the app exchanges messages with, and none for any other', () => {
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: `identity:t1=${key(1)},wallet:t1=${key(2)}` })).toEqual([
      'TRANSPORT_HMAC_KEYS: needs a key for each app the gateway exchanges messages with; none for core',
    ]);
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: `${gatewayKeys()},gateway:t1=${key(4)}` })).toEqual([
      'TRANSPORT_HMAC_KEYS: entry 4: the gateway exchanges no messages with the gateway; remove the key',
    ]);
    expect(problemsOf('identity', { TRANSPORT_HMAC_KEYS: `gateway:t1=${key(1)},wallet:t1=${key(2)},core:t1=${key(3)},console:t1=${key(4)}` })).toEqual([
      'TRANSPORT_HMAC_KEYS: entry 4: must start with the app the key is shared with (gateway, identity, wallet, core) and a colon',
    ]);
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: `${gatewayKeys()},t2=${key(4)}` })).toEqual(['TRANSPORT_HMAC_KEYS: entry 4: must be <peer>:<id>=base64 like the others']);
  });

  it('rotates one link at a time: where a link holds two keys, TRANSPORT_HMAC_KEY_ID names the one it signs with', () => {
    const rotating = `${gatewayKeys()},wallet:t2=${key(5)}`;
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: rotating })).toEqual([
      'TRANSPORT_HMAC_KEY_ID: must name the current key where a link holds several (the link with the wallet has 2)',
    ]);
    expect(transportKeysOf('gateway', { TRANSPORT_HMAC_KEYS: rotating, TRANSPORT_HMAC_KEY_ID: 't1' }).links.get('wallet')?.currentId).toBe('t1');
    const config = transportKeysOf('gateway', { TRANSPORT_HMAC_KEYS: rotating, TRANSPORT_HMAC_KEY_ID: 't2' });
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: rotating, TRANSPORT_HMAC_KEY_ID: 't2' })).toEqual([]);
    expect([...config.links].map(([peer, link]) => [peer, link.currentId, link.keys.size])).toEqual([
      ['identity', 't1', 1],
      ['wallet', 't2', 2],
      ['core', 't1', 1],
    ]);
    expect(problemsOf('gateway', { TRANSPORT_HMAC_KEYS: gatewayKeys(), TRANSPORT_HMAC_KEY_ID: 't9' })).toEqual(['TRANSPORT_HMAC_KEY_ID: must name one of the keys in TRANSPORT_HMAC_KEYS']);
  });

  it('takes the one keyring of earlier releases for every link outside production, and refuses it in production', () => {
    const shared = `t1=${key(7)}`;
    expect(problemsOf('wallet', { TRANSPORT_HMAC_KEYS: shared })).toEqual([]);
    const config = transportKeysOf('wallet', { TRANSPORT_HMAC_KEYS: shared });
    expect(config.shared).toBe(true);
    expect([...config.links.keys()]).toEqual(['gateway', 'identity', 'wallet', 'core']);
    expect(problemsOf('wallet', { NODE_ENV: 'production', TRANSPORT_HMAC_KEYS: shared })).toEqual([
      "TRANSPORT_HMAC_KEYS: holds one keyring shared by every app; production needs this app's own keys, <peer>:<id>=base64 for each of gateway, identity, wallet, core (npm run -s transport:keys prints them for every app)",
    ]);
  });

  it('is required in production, with one line', () => {
    expect(problemsOf('core', { NODE_ENV: 'production' })).toEqual(['TRANSPORT_HMAC_KEYS: must be set when NODE_ENV=production']);
    expect(problemsOf('core', {})).toEqual([]);
    expect(transportKeysOf('core', {}).links.size).toBe(0);
  });

  it('never echoes a key, whatever the mistake', () => {
    const secret = 'c2VjcmV0LWtleS1tYXRlcmlhbC1vZi0zMi1ieXRlcyE'; // 32 bytes
    const shapes = [
      `identity:t1=${secret}`,
      `${secret}:t1=identity`,
      `identity:${secret}`,
      `identity:t1=${secret},wallet:t1=${secret.slice(0, 20)}`,
      `nobody:t1=${secret}`,
      `{"identity:t1":"${secret}"`,
    ];
    for (const value of shapes) {
      const problems = problemsOf('gateway', { NODE_ENV: 'production', TRANSPORT_HMAC_KEYS: value, TRANSPORT_HMAC_KEY_ID: 't1' });
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.join('\n')).not.toContain(secret.slice(0, 12));
    }
  });
});
