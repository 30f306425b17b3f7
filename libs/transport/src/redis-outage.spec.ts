import { AppError } from '@game-wallet/contracts';
import { RedisOutage, isRedisUnavailable } from './redis-outage';

describe(RedisOutage.name, () => {
  const translate = new RedisOutage().translate;

  it('answers a demoted primary (READONLY), a loading node and a lost connection with 503 and Retry-After, not 500', () => {
    for (const message of [
      "READONLY You can't write against a read only replica.",
      'LOADING Redis is loading the dataset in memory',
      "Stream isn't writeable and enableOfflineQueue options is false",
      'Connection is closed.',
      'Command timed out',
    ]) {
      expect(translate(Object.assign(new Error(message), { name: 'ReplyError' }))).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 1 });
    }
  });

  it('leaves other failures alone: a wrong command, an app error', () => {
    expect(translate(new Error("ERR wrong number of arguments for 'get' command"))).toBeUndefined();
    expect(translate(new AppError('NOT_FOUND', 'x'))).toBeUndefined();
    expect(isRedisUnavailable('READONLY')).toBe(false);
  });
});
