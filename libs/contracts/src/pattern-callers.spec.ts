import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { APP_NAMES, AppName, PATTERN_CALLERS, mayCall, servicesCalledBy, transportPeersOf } from './pattern-callers';
import { PATTERNS, Pattern } from './patterns';
import { SERVICE_NAMES, ServiceName } from './services';

const ROOT = join(__dirname, '../../..');

/**
 * The sources an app runs: its own, for the gateway the authentication lib it alone uses, and for the wallet and core
 * services the console authorizer they ask identity with and the relay that hands their outbox to identity.
 */
const sourcesOf = (app: AppName): string[] =>
  [
    join(ROOT, 'apps', app, 'src'),
    ...(app === 'gateway' ? [join(ROOT, 'libs/auth/src')] : []),
    ...(app === 'wallet' || app === 'core' ? [join(ROOT, 'libs/service/src/console-authorizer.ts'), join(ROOT, 'libs/service/src/transport-outbox-relay.ts')] : []),
  ].flatMap((path) =>
    path.endsWith('.ts')
      ? [readFileSync(path, 'utf8')]
      : readdirSync(path, { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts') && !/\.spec\.ts$/.test(file))
          .map((file) => readFileSync(join(path, file), 'utf8')),
  );

/** The patterns of other services an app's code names (its own service's are the ones it handles). */
function patternsCalledIn(app: AppName): Set<Pattern> {
  const called = new Set<Pattern>();
  for (const text of sourcesOf(app)) {
    for (const [, service, action] of text.matchAll(/PATTERNS\.(identity|wallet|core)\.(\w+)/g)) {
      if (service !== app) {
        called.add((PATTERNS[service as ServiceName] as Record<string, Pattern>)[action]);
      }
    }
    if (/PATTERNS\[service\]\.ping/.test(text)) {
      SERVICE_NAMES.filter((service) => service !== app).forEach((service) => called.add(PATTERNS[service].ping));
    }
  }
  return called;
}

describe('PATTERN_CALLERS', () => {
  it("lists exactly the patterns each app's code asks for: none it would be refused, none it never asks for", () => {
    for (const app of APP_NAMES) {
      const called = [...patternsCalledIn(app)].sort();
      const allowed = (Object.keys(PATTERN_CALLERS) as Pattern[]).filter((pattern) => mayCall(app, pattern)).sort();
      expect({ app, patterns: allowed }).toEqual({ app, patterns: called });
    }
  });

  it('keeps core and the wallet to the few calls they make (their console patterns ask identity who may; their events go to identity)', () => {
    expect((Object.keys(PATTERN_CALLERS) as Pattern[]).filter((pattern) => mayCall('core', pattern))).toEqual([
      'identity.profiles.createOrGet',
      'identity.console.authorize',
      'identity.events.ingest',
      'wallet.wallets.createOrGet',
    ]);
    expect((Object.keys(PATTERN_CALLERS) as Pattern[]).filter((pattern) => mayCall('wallet', pattern))).toEqual(['identity.profiles.get', 'identity.console.authorize', 'identity.events.ingest']);
    expect(mayCall('core', 'wallet.wallets.sign')).toBe(false);
    expect(mayCall('wallet', 'identity.apiKeys.create')).toBe(false);
  });

  it('refuses a pattern it does not list, whatever its name', () => {
    expect(mayCall('gateway', 'core.unknown')).toBe(false);
    expect(mayCall('gateway', 'toString')).toBe(false);
    expect(mayCall('gateway', '__proto__')).toBe(false);
  });
});

describe(transportPeersOf.name, () => {
  it('pairs the apps that exchange messages: callers and callees, and the signed values', () => {
    expect(servicesCalledBy('gateway')).toEqual(['identity', 'wallet', 'core']);
    expect(servicesCalledBy('identity')).toEqual([]);
    expect(Object.fromEntries(APP_NAMES.map((app) => [app, transportPeersOf(app)]))).toEqual({
      gateway: ['identity', 'wallet', 'core'],
      identity: ['gateway', 'wallet', 'core'],
      wallet: ['gateway', 'identity', 'wallet', 'core'],
      core: ['gateway', 'identity', 'wallet'],
    });
  });
});
