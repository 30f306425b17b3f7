/**
 * Prints new transport keys for the four apps: each app's own TRANSPORT_HMAC_KEYS (a key per app it exchanges
 * messages with, the two ends of a link holding the same key) and TRANSPORT_HMAC_KEY_ID. Keys are printed once and
 * kept nowhere: put each app's two lines in that app's secret store (its Kubernetes Secret, its .env).
 *
 *   npm run -s transport:keys                      a section per app
 *   npm run -s transport:keys -- --prefixed        GATEWAY_TRANSPORT_HMAC_KEYS=…, one file for `set -a; . ./file`
 *   npm run -s transport:keys -- --id t2           keys of id t2, to rotate: add each app's entries to its own
 *                                                  TRANSPORT_HMAC_KEYS, restart, set TRANSPORT_HMAC_KEY_ID=t2,
 *                                                  restart, then remove the t1 entries
 */
import { parseArgs } from 'node:util';
import { APP_NAMES } from '@game-wallet/contracts';
import { newTransportEnvironment } from '../transport-keys';

const { values } = parseArgs({ options: { id: { type: 'string', default: 't1' }, prefixed: { type: 'boolean', default: false } } });
const id = values.id as string;
if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) {
  process.stderr.write('--id must be 1-64 letters, digits or _.-\n');
  process.exit(1);
}
const environment = newTransportEnvironment(id);
const lines = APP_NAMES.flatMap((app) => {
  const variables = Object.entries(environment[app]);
  return values.prefixed
    ? variables.map(([name, value]) => `${app.toUpperCase()}_${name}=${value}`)
    : [`# ${app}`, ...variables.map(([name, value]) => `${name}=${value}`), ''];
});
process.stderr.write(
  `Transport keys of the Game Wallet Platform, key id "${id}": each app gets only its own lines (a key per app it talks to). ` +
    'Secrets: keep them out of the repository.\n',
);
process.stdout.write(`${lines.join('\n')}\n`);
