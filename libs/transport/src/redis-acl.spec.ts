import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REDIS_ACL_APPS, redisAclRules } from './redis-acl';

/** The items of the compose file's `redis` command list, unquoted. */
function composeRedisCommand(): string[] {
  const compose = readFileSync(join(__dirname, '../../../docker-compose.yml'), 'utf8');
  const redis = compose.slice(compose.indexOf('\n  redis:\n'));
  const command = redis.slice(redis.indexOf('    command:\n') + '    command:\n'.length);
  const items: string[] = [];
  for (const line of command.split('\n')) {
    if (line.trim().startsWith('#')) {
      continue;
    }
    const item = /^ {6}- (.*)$/.exec(line);
    if (!item) {
      break;
    }
    items.push(item[1].replace(/^"(.*)"$/, '$1'));
  }
  return items;
}

describe('Redis ACL users', () => {
  it('are the ones the compose file gives its Redis, app by app, with the default user off', () => {
    const command = composeRedisCommand();
    const users = command.join(' ').split(' --user ').slice(1);
    expect(users[0]).toBe('default off');
    for (const app of REDIS_ACL_APPS) {
      const tokens = command.slice(command.indexOf(app) - 1);
      const rules = tokens.slice(4, tokens.indexOf('--user', 1) === -1 ? undefined : tokens.indexOf('--user', 1));
      expect({ app, password: tokens[3], rules }).toEqual({
        app,
        password: `>\${REDIS_PASSWORD_${app.toUpperCase()}:-${app}-local-only}`,
        rules: redisAclRules(app, 'gw'),
      });
    }
  });

  it('let a service publish replies but subscribe to none but its own', () => {
    for (const app of REDIS_ACL_APPS) {
      const rules = redisAclRules(app, 'gw');
      const subscribes = rules.filter((rule) => rule.includes('+subscribe') && rule.includes('&gw:reply:'));
      expect(subscribes.every((rule) => rule.includes(`&gw:reply:${app}-*`))).toBe(true);
      expect(rules.filter((rule) => rule.includes('&gw:reply:*')).every((rule) => rule === '(&gw:reply:* +publish)')).toBe(true);
    }
  });
});
