import { transportKeysOf } from '@game-wallet/config';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageRuntime } from './image-runtime';
import { AppLauncher, splitTransportKeys } from './launcher';
import { DEFAULT_PORTS, portsEnv, portsFromEnv, replicaPortsEnv } from './ports';

describe(AppLauncher.name, () => {
  it('without a data folder, makes a temporary one and secrets of its own: each app only the keys of its own links', async () => {
    const launcher = await AppLauncher.prepare({ label: 'spec', operator: { email: 'a@example.com', password: 'p' }, env: { REDIS_URL: 'redis://x' } });
    try {
      expect(existsSync(launcher.dataDir)).toBe(true);
      expect(launcher.env).toMatchObject({ CONSOLE_ADMIN_EMAIL: 'a@example.com', CONSOLE_ADMIN_PASSWORD: 'p', REDIS_URL: 'redis://x' });
      expect(Buffer.from(launcher.env.IDENTITY_KEY_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
      expect(new Set(Object.values(launcher.ports)).size).toBe(6);
      const gateway = transportKeysOf('gateway', launcher.envOf('gateway'));
      const wallet = transportKeysOf('wallet', launcher.envOf('wallet'));
      expect([...gateway.links.keys()].sort()).toEqual(['core', 'identity', 'wallet']);
      expect(gateway.links.get('wallet')?.keys.get('spec')).toEqual(wallet.links.get('gateway')?.keys.get('spec'));
      expect(launcher.env.TRANSPORT_HMAC_KEYS).toBeUndefined();
    } finally {
      await launcher.stop();
    }
    expect(existsSync(launcher.dataDir)).toBe(false);
  });

  it('gives every app the keyring of TRANSPORT_HMAC_KEYS when the platform is given one', async () => {
    const launcher = await AppLauncher.prepare({ label: 'spec', env: { TRANSPORT_HMAC_KEYS: 't1=x' } });
    await launcher.stop();
    expect(launcher.envOf('wallet').TRANSPORT_HMAC_KEYS).toBe('t1=x');
    expect(launcher.envOf('wallet').TRANSPORT_HMAC_KEY_ID).toBeUndefined();
  });

  it('with a data folder, leaves the secrets to the apps, takes the ports from the environment and each app its prefixed keys', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-spec-'));
    try {
      writeFileSync(join(dataDir, 'console-admin.txt'), 'admin@localhost\nsecret\n');
      const baseEnv = { PATH: '/bin', BASE_PORT: '4000', WALLET_TRANSPORT_HMAC_KEYS: 'gateway:k=abc', GATEWAY_TRANSPORT_HMAC_KEYS: 'wallet:k=abc' };
      const launcher = await AppLauncher.prepare({ label: 'start', baseEnv, dataDir, ports: portsFromEnv(baseEnv) });
      expect(launcher.env).toEqual({ ...portsEnv({ ...DEFAULT_PORTS, base: 4000 }), DATA_DIR: dataDir });
      expect(launcher.envOf('wallet')).toMatchObject({ TRANSPORT_HMAC_KEYS: 'gateway:k=abc' });
      expect(launcher.envOf('identity').TRANSPORT_HMAC_KEYS).toBeUndefined();
      expect(launcher.url('base')).toBe('http://127.0.0.1:4000');
      expect(launcher.consoleOperator()).toEqual({ email: 'admin@localhost', password: 'secret', file: join(dataDir, 'console-admin.txt') });
      await launcher.stop();
      expect(existsSync(dataDir)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("keeps one app's prefixed transport keys out of the others' environments", () => {
    const { shared, own } = splitTransportKeys({ A: '1', CORE_TRANSPORT_HMAC_KEYS: 'k', CORE_TRANSPORT_HMAC_KEY_ID: 'i', UNSET: undefined });
    expect(shared).toEqual({ A: '1' });
    expect(own).toEqual({ gateway: {}, identity: {}, wallet: {}, core: { TRANSPORT_HMAC_KEYS: 'k', TRANSPORT_HMAC_KEY_ID: 'i' } });
  });

  it('gives a second replica free ports of its own for each port its app listens on', async () => {
    expect(Object.keys(await replicaPortsEnv('gateway')).sort()).toEqual(['BASE_PORT', 'CORE_PORT', 'GATEWAY_INTERNAL_PORT']);
    expect(Object.keys(await replicaPortsEnv('core'))).toEqual(['CORE_SERVICE_PORT']);
  });
});

describe(imageRuntime.name, () => {
  const dockerfile = [
    'FROM node AS runtime',
    'ENV NODE_OPTIONS="--max-old-space-size=160"',
    'CMD ["node", "main.js"]',
    'FROM runtime AS app-gateway',
    'CMD ["node", "--single-threaded-gc", "main.js"]',
    'FROM runtime AS app-core',
  ].join('\n');

  it("reads NODE_OPTIONS from the runtime stage and the node flags of the app's own stage, else the runtime's", () => {
    expect(imageRuntime('gateway', dockerfile)).toEqual({ nodeOptions: '--max-old-space-size=160', nodeFlags: ['--single-threaded-gc'] });
    expect(imageRuntime('core', dockerfile)).toEqual({ nodeOptions: '--max-old-space-size=160', nodeFlags: [] });
  });

  it("reads the repository's Dockerfile, glibc's malloc arenas with it", () => {
    expect(imageRuntime('wallet').nodeOptions).toMatch(/--max-old-space-size=\d+/);
    expect(imageRuntime('wallet').mallocArenaMax).toBe('2');
  });
});
