import { APP_NAMES, AppName, isAppName, transportPeersOf } from '@game-wallet/contracts';
import { z } from 'zod';
import { envDocs } from './env-docs';
import { Env, optionalStringVar, requireInProduction } from './env-schema';
import { KEY_ID, KeyringFormat, parseKeyring } from './keyring';

/**
 * TRANSPORT_HMAC_KEYS holds an app's own transport keys: one key (or, while it rotates, several) per app it exchanges
 * messages with, each written `<peer>:<key id>=<base64>` (HMAC-SHA256, at least 32 bytes). The two ends of a link
 * hold the same key: the gateway's `wallet:t1` is the wallet's `gateway:t1`. Entries without a peer (`t1=<base64>`)
 * are the one keyring every app shared in earlier releases, accepted outside production only.
 */
const TRANSPORT_KEY: KeyringFormat = {
  minBytes: 32,
  id: {
    pattern: new RegExp(`^(?:[a-z]+:)?${KEY_ID.source.slice(1, -1)}$`),
    described: '<peer>:<id>=base64, the peer an app (gateway, identity, wallet or core) and the id 1-64 letters, digits or _.-',
  },
};

/** The keys of one link: every key messages on it may be signed with, and the one this app signs with. */
export interface TransportLinkKeys {
  keys: Map<string, Buffer>;
  currentId: string;
}

/** An app's transport keys as configured. */
export interface TransportKeysConfig {
  /** By peer; empty when TRANSPORT_HMAC_KEYS is unset (development then generates them into the data folder). */
  links: Map<AppName, TransportLinkKeys>;
  /** TRANSPORT_HMAC_KEYS is the single keyring of earlier releases, used here for every link (development only). */
  shared: boolean;
}

/** The variables, in every app's schema. */
export const transportKeysEnvShape = {
  TRANSPORT_HMAC_KEYS: optionalStringVar().register(envDocs, {
    description:
      "The app's own transport keys (HMAC-SHA256), one per app it exchanges messages with: `<peer>:<id>=<base64>,…`, " +
      'the peer `gateway`, `identity`, `wallet` or `core`, the id 1–64 letters, digits or `_.-`, each key at least 32 ' +
      "bytes. The other app holds the same key for their link (the gateway's `wallet:t1` is the wallet's `gateway:t1`); " +
      "`npm run -s transport:keys` prints all four apps' keys, and with `--prefixed` as `<APP>_TRANSPORT_HMAC_KEYS`, " +
      'which `npm start` and `docker-compose.yml` hand to each app. The one shared `id=base64` keyring of earlier ' +
      'releases works outside production, with a warning that it does not keep apps apart, and is refused in production.',
    required: { production: true },
    default:
      'a `dev` key per pair of apps, generated into `DATA_DIR/transport/` (`gateway-wallet.key`, …) and shared by the ' +
      'apps started from that folder',
    secret: true,
  }),
  TRANSPORT_HMAC_KEY_ID: optionalStringVar().register(envDocs, {
    description:
      'The id of the key the app signs with where a link holds several (while they rotate): one of the ids in ' +
      '`TRANSPORT_HMAC_KEYS`. A link with one key signs with it, so one link can rotate while the others keep theirs.',
    default: "each link's only key",
  }),
};

type Reading = { config: TransportKeysConfig; problems: { variable: string; message: string }[] };

/**
 * The transport keys of `app`, and what is wrong with them. Problems name entries by position, peers and key ids
 * only: never any part of a key.
 */
function readTransportKeys(app: AppName, env: Env): Reading {
  const problems: Reading['problems'] = [];
  const config: TransportKeysConfig = { links: new Map(), shared: false };
  const value = env.TRANSPORT_HMAC_KEYS?.trim() || undefined;
  const currentId = env.TRANSPORT_HMAC_KEY_ID?.trim() || undefined;
  const parsed = parseKeyring(value, TRANSPORT_KEY);
  if (typeof parsed === 'string') {
    return { config, problems: [{ variable: 'TRANSPORT_HMAC_KEYS', message: parsed }] };
  }
  if (currentId !== undefined && !KEY_ID.test(currentId)) {
    problems.push({ variable: 'TRANSPORT_HMAC_KEY_ID', message: 'must be a key id: 1-64 letters, digits or _.-' });
  }
  if (parsed.size === 0) {
    return { config, problems };
  }
  const peers = transportPeersOf(app);
  const entries = [...parsed].map(([name, key], index) => ({ position: `entry ${index + 1}`, colon: name.indexOf(':'), name, key }));
  const withPeer = entries.filter((entry) => entry.colon > 0);
  if (withPeer.length === 0) {
    config.shared = true;
    const keys = new Map(entries.map(({ name, key }) => [name, key]));
    if (env.NODE_ENV === 'production') {
      problems.push({
        variable: 'TRANSPORT_HMAC_KEYS',
        message: `holds one keyring shared by every app; production needs this app's own keys, <peer>:<id>=base64 for each of ${peers.join(', ')} (npm run -s transport:keys prints them for every app)`,
      });
    }
    const current = currentOf(keys, currentId);
    if (current.problem) {
      problems.push({ variable: 'TRANSPORT_HMAC_KEY_ID', message: current.problem });
    }
    peers.forEach((peer) => config.links.set(peer, { keys, currentId: current.id ?? '' }));
    return { config, problems };
  }
  for (const entry of entries) {
    const peer = entry.name.slice(0, entry.colon);
    if (entry.colon < 0) {
      problems.push({ variable: 'TRANSPORT_HMAC_KEYS', message: `${entry.position}: must be <peer>:<id>=base64 like the others` });
    } else if (!isAppName(peer)) {
      problems.push({ variable: 'TRANSPORT_HMAC_KEYS', message: `${entry.position}: must start with the app the key is shared with (${APP_NAMES.join(', ')}) and a colon` });
    } else if (!peers.includes(peer)) {
      problems.push({ variable: 'TRANSPORT_HMAC_KEYS', message: `${entry.position}: the ${app} exchanges no messages with the ${peer}; remove the key` });
    } else {
      const link = config.links.get(peer) ?? { keys: new Map<string, Buffer>(), currentId: '' };
      link.keys.set(entry.name.slice(entry.colon + 1), entry.key);
      config.links.set(peer, link);
    }
  }
  const missing = peers.filter((peer) => !config.links.has(peer));
  if (missing.length > 0) {
    problems.push({ variable: 'TRANSPORT_HMAC_KEYS', message: `needs a key for each app the ${app} exchanges messages with; none for ${missing.join(', ')}` });
  }
  if (currentId !== undefined && ![...config.links.values()].some((link) => link.keys.has(currentId))) {
    problems.push({ variable: 'TRANSPORT_HMAC_KEY_ID', message: 'must name one of the keys in TRANSPORT_HMAC_KEYS' });
  }
  for (const [peer, link] of config.links) {
    // A link with one key signs with it, so one link can rotate while the others keep their key and id.
    const current = link.keys.size === 1 ? { id: [...link.keys.keys()][0] } : currentOf(link.keys, currentId);
    if (current.problem) {
      problems.push({ variable: 'TRANSPORT_HMAC_KEY_ID', message: `${current.problem} (the link with the ${peer} has ${link.keys.size})` });
    }
    link.currentId = current.id ?? '';
  }
  return { config, problems };
}

function currentOf(keys: Map<string, Buffer>, currentId: string | undefined): { id?: string; problem?: string } {
  if (currentId === undefined) {
    return keys.size === 1 ? { id: [...keys.keys()][0] } : { problem: 'must name the current key where a link holds several' };
  }
  return keys.has(currentId) ? { id: currentId } : { problem: 'must name one of the keys in TRANSPORT_HMAC_KEYS' };
}

/**
 * Checks of the transport keys of `app` across the two variables: production needs them, each link the app has needs
 * a key, and where a link holds several TRANSPORT_HMAC_KEY_ID names the one it signs with.
 */
export function checkTransportKeys(app: AppName, env: Env, context: z.RefinementCtx): void {
  requireInProduction(env, ['TRANSPORT_HMAC_KEYS'], context);
  for (const { variable, message } of dedupe(readTransportKeys(app, env).problems)) {
    context.addIssue({ code: 'custom', path: [variable], message });
  }
}

/** The transport keys of `app` from validated variables. */
export function transportKeysOf(app: AppName, env: Env): TransportKeysConfig {
  return readTransportKeys(app, env).config;
}

/** Each problem once (several links can have the same one). */
function dedupe(problems: Reading['problems']): Reading['problems'] {
  const lines = new Map(problems.map((problem) => [`${problem.variable}: ${problem.message}`, problem]));
  return [...lines.values()];
}
