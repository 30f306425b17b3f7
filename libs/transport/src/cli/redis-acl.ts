/**
 * Prints the platform's Redis ACL users, one per app, as lines of a Redis ACL file (`redis-server --aclfile`); each
 * line after `user ` is also what `ACL SETUSER` takes. Each app's password comes from REDIS_PASSWORD_<APP>
 * (REDIS_PASSWORD_GATEWAY, …) and is printed only as its SHA-256 (`#…`); unset, the line holds `>CHANGE-ME`.
 *
 *   npm run -s redis:acl -- --prefix gw > users.acl   (-s: without npm's own lines, which Redis would refuse)
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { REDIS_ACL_APPS, redisAclUserLine } from '../redis-acl';

const { values } = parseArgs({ options: { prefix: { type: 'string', default: process.env.TRANSPORT_KEY_PREFIX || 'gw' } } });
const prefix = values.prefix as string;
const lines = REDIS_ACL_APPS.map((app) => {
  const password = process.env[`REDIS_PASSWORD_${app.toUpperCase()}`];
  return redisAclUserLine(app, prefix, password ? `#${createHash('sha256').update(password).digest('hex')}` : '>CHANGE-ME');
});
// An ACL file has no comments: the notes go to stderr.
process.stderr.write(
  `Redis ACL users of the Game Wallet Platform, transport key prefix "${prefix}" (Redis 7 or later). Each app connects ` +
    'as its own user: REDIS_URL=rediss://<app>:<password>@<host>:6379. The default user is turned off.\n',
);
process.stdout.write(['user default off', ...lines, ''].join('\n'));
