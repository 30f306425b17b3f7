import { PATTERNS, Pattern } from './patterns';
import { SERVICE_NAMES, ServiceName } from './services';

/** The platform's apps: the gateway and the three services. Each signs the transport with keys of its own. */
export const APP_NAMES = ['gateway', 'identity', 'wallet', 'core'] as const;
export type AppName = (typeof APP_NAMES)[number];

export function isAppName(value: string): value is AppName {
  return (APP_NAMES as readonly string[]).includes(value);
}

/**
 * Which apps may ask for each pattern. A service runs a request only when the app that signed it is listed for its
 * pattern, and drops any other like a forged one: an app whose keys leak can make a service do only what that app
 * does anyway. The lists are the real call sites: everything public goes through the gateway; core creates a new
 * player's profile and wallet; the wallet reads a wallet's profile (`include=profile`). Every pattern must be listed.
 */
export const PATTERN_CALLERS = {
  'identity.ping': ['gateway'],
  'identity.apiKeys.resolve': ['gateway'],
  'identity.apiKeys.touch': ['gateway'],
  'identity.apiKeys.list': ['gateway'],
  'identity.apiKeys.create': ['gateway'],
  'identity.apiKeys.update': ['gateway'],
  'identity.apiKeys.delete': ['gateway'],
  'identity.apiKeys.signingKeys.add': ['gateway'],
  'identity.apiKeys.signingKeys.remove': ['gateway'],
  'identity.games.list': ['gateway'],
  'identity.games.create': ['gateway'],
  'identity.games.get': ['gateway'],
  'identity.profiles.createOrGet': ['core'],
  'identity.profiles.get': ['wallet'],
  'identity.profiles.authenticate': ['gateway'],
  'identity.profiles.revoke': ['gateway'],
  'identity.tokens.jwks': ['gateway'],
  'identity.tokens.revocations': ['gateway'],
  'identity.console.signIn': ['gateway'],
  'identity.console.passwordKey': ['gateway'],
  'identity.console.signOut': ['gateway'],
  'identity.console.session': ['gateway'],
  'identity.console.authorize': ['wallet', 'core'],
  'identity.console.secondFactor': ['gateway'],
  'identity.console.stepUp': ['gateway'],
  'identity.console.stepUpOptions': ['gateway'],
  'identity.account.update': ['gateway'],
  'identity.account.password': ['gateway'],
  'identity.account.sessions.list': ['gateway'],
  'identity.account.sessions.end': ['gateway'],
  'identity.account.totp.start': ['gateway'],
  'identity.account.totp.confirm': ['gateway'],
  'identity.account.totp.remove': ['gateway'],
  'identity.account.recoveryCodes.renew': ['gateway'],
  'identity.account.passkeys.options': ['gateway'],
  'identity.account.passkeys.register': ['gateway'],
  'identity.account.passkeys.remove': ['gateway'],
  'identity.operators.list': ['gateway'],
  'identity.operators.update': ['gateway'],
  'identity.operators.remove': ['gateway'],
  'identity.operators.sessions.list': ['gateway'],
  'identity.operators.sessions.end': ['gateway'],
  'identity.invitations.list': ['gateway'],
  'identity.invitations.create': ['gateway'],
  'identity.invitations.revoke': ['gateway'],
  'identity.invitations.preview': ['gateway'],
  'identity.invitations.accept': ['gateway'],
  'identity.settings.get': ['gateway'],
  'identity.settings.update': ['gateway'],
  'identity.audit.list': ['gateway'],
  'identity.audit.export': ['gateway'],
  'identity.events.ingest': ['wallet', 'core'],
  'identity.webhooks.list': ['gateway'],
  'identity.webhooks.create': ['gateway'],
  'identity.webhooks.update': ['gateway'],
  'identity.webhooks.delete': ['gateway'],
  'identity.webhooks.rotateSecret': ['gateway'],
  'identity.webhooks.test': ['gateway'],
  'identity.webhooks.deliveries': ['gateway'],
  'identity.webhooks.redeliver': ['gateway'],
  'identity.webhooks.redeliverFailed': ['gateway'],
  'wallet.ping': ['gateway'],
  'wallet.wallets.createOrGet': ['core'],
  'wallet.wallets.get': ['gateway'],
  'wallet.wallets.sign': ['gateway'],
  'wallet.wallets.signTransaction': ['gateway'],
  'wallet.wallets.signTypedData': ['gateway'],
  'wallet.wallets.addresses': ['gateway'],
  'wallet.policies.get': ['gateway'],
  'wallet.policies.put': ['gateway'],
  'wallet.policies.versions': ['gateway'],
  'wallet.policies.evaluate': ['gateway'],
  'wallet.policies.draft.get': ['gateway'],
  'wallet.policies.draft.put': ['gateway'],
  'wallet.policies.draft.delete': ['gateway'],
  'wallet.policies.draft.differences': ['gateway'],
  'wallet.policies.draft.replay': ['gateway'],
  'wallet.policies.draft.activate': ['gateway'],
  'wallet.signatures.list': ['gateway'],
  'wallet.audit.export': ['gateway'],
  'core.ping': ['gateway'],
  'core.players.create': ['gateway'],
  'core.players.get': ['gateway'],
  'core.players.list': ['gateway'],
} as const satisfies Record<Pattern, readonly AppName[]>;

/**
 * What apps sign for one another over Redis besides requests and replies: identity's shared API-key cache entries and
 * revocation broadcasts for the gateways, and the wallet's "last used" broadcast for its own replicas.
 */
export const SIGNED_VALUES: readonly { from: AppName; to: AppName }[] = [
  { from: 'identity', to: 'gateway' },
  { from: 'wallet', to: 'wallet' },
];

/** True when `app` may ask for `pattern` (an unknown pattern: nobody may). */
export function mayCall(app: string, pattern: string): boolean {
  const callers: readonly string[] | undefined = Object.hasOwn(PATTERN_CALLERS, pattern) ? PATTERN_CALLERS[pattern as Pattern] : undefined;
  return callers !== undefined && callers.includes(app);
}

/** The services `app` calls over the transport. */
export function servicesCalledBy(app: AppName): ServiceName[] {
  return SERVICE_NAMES.filter((service) => Object.values(PATTERNS[service]).some((pattern) => mayCall(app, pattern)));
}

/** The apps that call `service` over the transport. */
export function callersOf(service: ServiceName): AppName[] {
  return APP_NAMES.filter((app) => servicesCalledBy(app).includes(service));
}

/**
 * The apps `app` exchanges signed messages with, itself included when it signs for its own replicas: those it calls
 * (requests out, replies back), those that call it, and those it signs values for or takes signed values from. Each
 * such link has keys of its own (see TRANSPORT_HMAC_KEYS).
 */
export function transportPeersOf(app: AppName): AppName[] {
  const peers = new Set<AppName>(servicesCalledBy(app));
  if (isServiceName(app)) {
    callersOf(app).forEach((caller) => peers.add(caller));
  }
  for (const { from, to } of SIGNED_VALUES) {
    if (from === app) {
      peers.add(to);
    }
    if (to === app) {
      peers.add(from);
    }
  }
  return APP_NAMES.filter((peer) => peers.has(peer));
}

function isServiceName(app: AppName): app is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(app);
}
