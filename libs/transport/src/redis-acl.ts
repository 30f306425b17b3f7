import { APP_NAMES, AppName, BROADCAST, ServiceName, apiKeyCacheKey, broadcastChannel, servicesCalledBy } from '@game-wallet/contracts';
import { heartbeatKey, replyChannel, streamKey } from './transport-options';

/** The apps that connect to Redis, each as an ACL user of its own. */
export const REDIS_ACL_APPS = APP_NAMES;
export type RedisAclApp = AppName;

/** Which service an app serves; which it calls follows from the contract's table of callers (`servicesCalledBy`). */
const SERVES: Record<RedisAclApp, ServiceName | undefined> = { gateway: undefined, identity: 'identity', wallet: 'wallet', core: 'core' };

/** Commands every connection needs: the handshake ioredis runs (CLIENT SETNAME, INFO ready check, SELECT). */
const CONNECTION = ['+ping', '+info', '+select', '+hello', '+auth', '+quit', '+client|setname', '+unsubscribe', '+punsubscribe'];

/** What a service replica does with its stream: read as a consumer group member, ack and delete what it ran, reclaim a dead replica's work. */
const CONSUMER = ['+xreadgroup', '+xack', '+xdel', '+xgroup|create', '+xgroup|delconsumer', '+xinfo|consumers', '+xpending', '+xclaim'];

/** The Redis key prefix of the sign-in lockout counters (identity) and the rate-limit buckets (gateway). */
export const signInFailuresKeyPattern = (prefix: string): string => `${prefix}:sign-in-failures:*`;
export const rateLimitKeyPattern = (prefix: string): string => `${prefix}:rate:*`;
/** The nonces of signed requests (RFC 9421), each taken once across gateways: `<prefix>:signature-nonce:<key id>:<nonce>`. */
export const signatureNonceKey = (prefix: string, apiKeyId: string, nonce: string): string => `${prefix}:signature-nonce:${apiKeyId}:${nonce}`;
const signatureNonceKeyPattern = (prefix: string): string => `${prefix}:signature-nonce:*`;
export const walletUsedChannel = (prefix: string): string => `${prefix}:events:wallet-used`;
/** The wallet's velocity counters (signing policy): one hash per game, rule criterion, subject and chain. */
export const velocityKey = (prefix: string, gameId: string, counter: string): string => `${prefix}:velocity:${gameId}:${counter}`;
const velocityKeyPattern = (prefix: string): string => `${prefix}:velocity:*`;

/** A selector: commands allowed only on these keys (`~`, `%R~`) and channels (`&`). */
const selector = (commands: string[], keys: string[], channels: string[] = []): string =>
  `(${[...keys, ...channels.map((channel) => `&${channel}`), ...commands].join(' ')})`;

const identityEvents = (prefix: string): string[] =>
  [BROADCAST.apiKeys, BROADCAST.revocations, BROADCAST.signingKeys].map((event) => broadcastChannel(prefix, event));

/**
 * The Redis ACL rules of one app's user: the commands it runs, each allowed only on the keys and channels the app uses
 * (Redis 7 selectors), everything else refused. The gateway can put requests on the services' streams but not read
 * them, read the API-key cache but not write it, and hear only its own replies; a service reads only its own stream
 * and can publish replies but not listen to anyone's.
 */
export function redisAclRules(app: RedisAclApp, prefix: string): string[] {
  const rules = ['resetkeys', 'resetchannels', '-@all', ...CONNECTION];
  const served = SERVES[app];
  if (served) {
    rules.push(
      selector(CONSUMER, [`~${streamKey(prefix, served)}`]),
      selector(['+set', '+exists', '+del'], [`~${heartbeatKey(prefix, served, '*')}`]),
      selector(['+publish'], [], [replyChannel(prefix, '*')]),
    );
  }
  const called = servicesCalledBy(app);
  if (called.length > 0) {
    rules.push(
      selector(['+xadd'], called.map((service) => `~${streamKey(prefix, service)}`)),
      selector(['+subscribe'], [], [replyChannel(prefix, `${app}-*`)]),
    );
  }
  switch (app) {
    case 'gateway':
      rules.push(
        selector(['+get'], [`%R~${apiKeyCacheKey(prefix, '*')}`]),
        selector(['+evalsha', '+eval', '+time', '+get', '+set'], [`~${rateLimitKeyPattern(prefix)}`]),
        // a nonce is only ever taken (SET … NX EX): never read, changed or removed
        selector(['+set'], [`~${signatureNonceKeyPattern(prefix)}`]),
        selector(['+subscribe'], [], identityEvents(prefix)),
      );
      break;
    case 'identity':
      rules.push(
        // a key's cache entry and its broadcast go together (MULTI … EXEC)
        '+multi',
        '+exec',
        '+discard',
        selector(['+get', '+set', '+del'], [`~${apiKeyCacheKey(prefix, '*')}`]),
        selector(['+evalsha', '+eval', '+get', '+pttl', '+incr', '+decr', '+expire'], [`~${signInFailuresKeyPattern(prefix)}`]),
        selector(['+publish', '+subscribe'], [], identityEvents(prefix)),
      );
      break;
    case 'wallet':
      rules.push(
        selector(['+publish', '+subscribe'], [], [walletUsedChannel(prefix)]),
        selector(['+evalsha', '+eval', '+time', '+hgetall', '+hget', '+hset', '+hdel', '+hincrby', '+pexpire'], [`~${velocityKeyPattern(prefix)}`]),
      );
      break;
    case 'core':
      break;
  }
  return rules;
}

/** An ACL file line (`user <name> on <password> <rules>`); `password` as `>plain` or `#sha256-hex`. */
export function redisAclUserLine(app: RedisAclApp, prefix: string, password: string, user: string = app): string {
  return ['user', user, 'on', password, ...redisAclRules(app, prefix)].join(' ');
}
