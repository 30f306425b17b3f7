import { APP_NAMES, AppName, transportPeersOf } from '@game-wallet/contracts';
import { transportKeysOf } from '@game-wallet/config';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransportKeyring } from './transport-keyring';
import { TransportKeys, newTransportEnvironment } from './transport-keys';

/** Every app's keys from one generated environment, as each app reads its own. */
const platformKeys = (): Record<AppName, TransportKeys> => {
  const environment = newTransportEnvironment('t1');
  return Object.fromEntries(APP_NAMES.map((app) => [app, TransportKeys.fromConfig(app, transportKeysOf(app, environment[app]), '/nonexistent')])) as Record<AppName, TransportKeys>;
};

describe(TransportKeys.name, () => {
  const keys = platformKeys();

  it('gives each app a key for each app it exchanges messages with, and no other', () => {
    for (const app of APP_NAMES) {
      expect(keys[app].peers.sort()).toEqual([...transportPeersOf(app)].sort());
    }
    expect(keys.gateway.peers.sort()).toEqual(['core', 'identity', 'wallet']);
    expect(keys.wallet.peers.sort()).toEqual(['core', 'gateway', 'identity', 'wallet']);
  });

  it('lets the receiver of a message check it and learn its sender', () => {
    const signature = keys.gateway.sign('wallet', 'request gw:rpc:wallet', '[{"p":"wallet.wallets.sign"}]');
    expect(signature).toMatch(/^gateway:t1\.[A-Za-z0-9_-]{43}$/);
    expect(keys.wallet.verify('request gw:rpc:wallet', '[{"p":"wallet.wallets.sign"}]', signature)).toEqual({ check: 'ok', sender: 'gateway' });
  });

  it('keeps apps apart: no app can sign as another, nor on a link it is not on', () => {
    const text = '[{"p":"identity.apiKeys.create"}]';
    const context = 'request gw:rpc:identity';
    // The wallet's own key with identity, with the sender rewritten to the gateway: refused.
    const asGateway = keys.wallet.sign('identity', context, text).replace(/^wallet:/, 'gateway:');
    expect(keys.identity.verify(context, text, asGateway)).toEqual({ check: 'bad-signature' });
    // The wallet's key with the gateway cannot speak to identity either.
    const walletGatewayKey = keys.wallet.sign('gateway', context, text);
    expect(keys.identity.verify(context, text, walletGatewayKey.replace(/^wallet:/, 'gateway:'))).toEqual({ check: 'bad-signature' });
    // What the wallet signs for identity, identity takes as the wallet's (its callers table decides what it may ask).
    expect(keys.identity.verify(context, text, keys.wallet.sign('identity', context, text))).toEqual({ check: 'ok', sender: 'wallet' });
  });

  it('binds a message to its direction on the link: a request cannot come back as the answer', () => {
    const signature = keys.gateway.sign('core', 'c', 't');
    expect(keys.core.verify('c', 't', signature)).toEqual({ check: 'ok', sender: 'gateway' });
    expect(keys.gateway.verify('c', 't', signature.replace(/^gateway:/, 'core:'))).toEqual({ check: 'bad-signature' });
  });

  it('refuses a signature without a sender, from an app it has no link with, or with an unknown key id', () => {
    const signature = keys.gateway.sign('core', 'c', 't');
    expect(keys.core.verify('c', 't', undefined)).toEqual({ check: 'unsigned' });
    expect(keys.core.verify('c', 't', signature.slice('gateway:'.length))).toEqual({ check: 'unknown-key' });
    expect(keys.gateway.verify('c', 't', keys.core.sign('gateway', 'c', 't').replace(/^core:/, 'nobody:'))).toEqual({ check: 'unknown-key' });
    expect(keys.core.verify('c', 't', signature.replace(':t1.', ':t9.'))).toEqual({ check: 'unknown-key' });
    expect(() => keys.gateway.sign('gateway', 'c', 't')).toThrow('The gateway holds no transport key for the gateway');
  });

  it('rotates a link without downtime: both keys accepted while the new one becomes current', () => {
    const t1 = Buffer.alloc(32, 1);
    const t2 = Buffer.alloc(32, 2);
    const before = new TransportKeys('gateway', new Map([['core', new TransportKeyring(new Map([['t1', t1]]), 't1')]]));
    const during = new TransportKeys('core', new Map([['gateway', new TransportKeyring(new Map([['t1', t1], ['t2', t2]]), 't2')]]));
    const after = new TransportKeys('gateway', new Map([['core', new TransportKeyring(new Map([['t2', t2]]), 't2')]]));
    expect(during.verify('c', 't', before.sign('core', 'c', 't'))).toEqual({ check: 'ok', sender: 'gateway' });
    expect(during.verify('c', 't', after.sign('core', 'c', 't'))).toEqual({ check: 'ok', sender: 'gateway' });
    expect(during.sign('gateway', 'c', 't')).toMatch(/^core:t2\./);
  });

  describe('in development, without configured keys', () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'gwt-transport-keys-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    it('generates a key per link into the data folder, shared by the apps started from it', () => {
      const none = { links: new Map(), shared: false };
      const gateway = TransportKeys.fromConfig('gateway', none, dataDir);
      const wallet = TransportKeys.fromConfig('wallet', none, dataDir);
      expect(wallet.verify('c', 't', gateway.sign('wallet', 'c', 't'))).toEqual({ check: 'ok', sender: 'gateway' });
      expect(readdirSync(join(dataDir, 'transport')).sort()).toEqual(['core-gateway.key', 'core-wallet.key', 'gateway-identity.key', 'gateway-wallet.key', 'identity-wallet.key', 'wallet-wallet.key']);
    });
  });
});
