import { APP_NAMES, AppName, isAppName, transportPeersOf } from '@game-wallet/contracts';
import { loadOrCreateDevSecret } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SignatureCheck, TransportKeyring } from './transport-keyring';

/** Why a message was dropped: its signature, or a sender that may not send it (a pattern, a value, a reply it does not own). */
export type RejectionReason = Exclude<SignatureCheck, 'ok'> | 'refused-sender';

export type Verified = { check: 'ok'; sender: AppName } | { check: Exclude<SignatureCheck, 'ok'> };

/** An app's keys as configured (`@game-wallet/config`'s TransportKeysConfig): per peer, its keys and the current id. */
export interface TransportKeysSource {
  links: ReadonlyMap<AppName, { keys: ReadonlyMap<string, Buffer>; currentId: string }>;
  shared: boolean;
}

/** What an app started with the single keyring of earlier releases logs once. */
export const SHARED_TRANSPORT_KEYS_WARNING =
  'TRANSPORT_HMAC_KEYS holds one keyring shared by every app, as in earlier releases: it authenticates messages but does not keep apps apart (any app can pass as any other). Give each app its own keys, <peer>:<id>=base64 (npm run -s transport:keys); production refuses the shared form.';

/** The development key file of the link between two apps: `core-gateway`, `wallet-wallet`. */
export const linkName = (one: AppName, other: AppName): string => [one, other].sort().join('-');

/**
 * One app's transport keys: a key per link, a link being a pair of apps that exchange messages (the gateway and the
 * wallet; core and identity; the wallet and its own replicas), held by the two ends of that link and nobody else.
 * HMAC is symmetric, so whoever can check a message can also make one: with a key per link, what an app holds lets it
 * speak only on its own links. A wallet whose keys leak can still not pass as the gateway to identity, nor as identity
 * to a gateway, as it holds neither of those links' keys.
 *
 * Every signature names its sender (`<sender>:<key id>.<MAC>`), and the MAC covers the sender and the receiver with
 * the message, so a message cannot be turned around on its link either. A receiver takes the key of the link with the
 * named sender; then it checks that this sender may send what it sent (a service: the pattern's callers; a caller:
 * only the service it asked; a gateway: cache entries and revocations from identity only).
 */
export class TransportKeys {
  constructor(
    readonly app: AppName,
    private readonly links: ReadonlyMap<AppName, TransportKeyring>,
    /** Every link uses the one keyring of earlier releases: apps are not kept apart (development only). */
    readonly shared = false,
  ) {}

  /**
   * The configured keys; in development without any, a key per link generated into `transport/` of the data folder
   * (`<app>-<app>.key`), shared by every app started from it (docker-compose mounts one volume there in every app).
   * Production configuration requires TRANSPORT_HMAC_KEYS, so generated keys never serve there.
   */
  static fromConfig(app: AppName, config: TransportKeysSource, dataDir: string): TransportKeys {
    if (config.links.size > 0) {
      const links = [...config.links].map(([peer, link]): [AppName, TransportKeyring] => [peer, new TransportKeyring(link.keys, link.currentId)]);
      return new TransportKeys(app, new Map(links), config.shared);
    }
    const links = transportPeersOf(app).map((peer): [AppName, TransportKeyring] => {
      const { key } = loadOrCreateDevSecret(join(dataDir, 'transport'), linkName(app, peer));
      return [peer, new TransportKeyring(new Map([['dev', key]]), 'dev')];
    });
    return new TransportKeys(app, new Map(links));
  }

  /** Fresh random keys, of id `id`, for every link of `app` (tests): nobody else holds them. */
  static random(app: AppName, id = 't1'): TransportKeys {
    return new TransportKeys(app, new Map(transportPeersOf(app).map((peer) => [peer, TransportKeyring.random(id)])));
  }

  /** The apps this one has keys for. */
  get peers(): AppName[] {
    return [...this.links.keys()];
  }

  has(peer: AppName): boolean {
    return this.links.has(peer);
  }

  /** `<this app>:<key id>.<MAC>` of a message to `to`, with the key of the link with it; throws without one. */
  sign(to: AppName, context: string, text: string): string {
    const link = this.links.get(to);
    if (!link) {
      throw new Error(`The ${this.app} holds no transport key for the ${to}`);
    }
    return `${this.app}:${link.sign(linkContext(context, this.app, to), text)}`;
  }

  /** Whether a message to this app was signed by the app it names, with the key of the link with that app. */
  verify(context: string, text: string, signature: string | undefined): Verified {
    if (!signature) {
      return { check: 'unsigned' };
    }
    const colon = signature.indexOf(':');
    const sender = signature.slice(0, Math.max(colon, 0));
    const link = isAppName(sender) ? this.links.get(sender) : undefined;
    if (!link) {
      return { check: 'unknown-key' };
    }
    const check = link.verify(linkContext(context, sender as AppName, this.app), text, signature.slice(colon + 1));
    return check === 'ok' ? { check, sender: sender as AppName } : { check };
  }
}

/** The signed context: where the message travels, and between which two apps, in which direction. */
const linkContext = (context: string, from: AppName, to: AppName): string => `${context} ${from}>${to}`;

/**
 * New keys for every link of the platform, as each app's environment: `TRANSPORT_HMAC_KEYS` (`<peer>:<id>=<base64>`
 * per link of that app) and `TRANSPORT_HMAC_KEY_ID`. The two ends of a link get the same key.
 */
export function newTransportEnvironment(id = 't1'): Record<AppName, { TRANSPORT_HMAC_KEYS: string; TRANSPORT_HMAC_KEY_ID: string }> {
  const keys = new Map<string, string>();
  const keyOf = (app: AppName, peer: AppName): string => {
    const name = linkName(app, peer);
    const key = keys.get(name) ?? randomBytes(32).toString('base64');
    keys.set(name, key);
    return key;
  };
  const environment = APP_NAMES.map((app) => [
    app,
    { TRANSPORT_HMAC_KEYS: transportPeersOf(app).map((peer) => `${peer}:${id}=${keyOf(app, peer)}`).join(','), TRANSPORT_HMAC_KEY_ID: id },
  ]);
  return Object.fromEntries(environment) as Record<AppName, { TRANSPORT_HMAC_KEYS: string; TRANSPORT_HMAC_KEY_ID: string }>;
}
