import { ProbeTimeout, publicDownReason, withTimeout } from './health-probes';

const driverError = (message: string, code?: string) => Object.assign(new Error(message), code === undefined ? {} : { code });

describe(publicDownReason.name, () => {
  it.each([
    ['a refused connection (pg)', driverError('connect ECONNREFUSED 10.0.4.17:5432', 'ECONNREFUSED'), 'connection refused'],
    ['a refused connection (ioredis, code only in the text)', driverError('connect ECONNREFUSED 10.0.4.18:6379'), 'connection refused'],
    ['an unknown host', driverError('getaddrinfo ENOTFOUND db.internal.example', 'ENOTFOUND'), 'host not found'],
    ['a wrong password', driverError('password authentication failed for user "wallet_svc"', '28P01'), 'authentication failed'],
    ['an administrator shutdown', driverError('terminating connection due to administrator command', '57P01'), 'shutting down'],
    ['a closed connection', driverError('Connection is closed.'), 'connection closed'],
    ['a Redis connection that is down (fail-fast)', driverError("Stream isn't writeable and enableOfflineQueue options is false"), 'connection closed'],
    ['a check that timed out', new ProbeTimeout('database', 1000), 'timeout'],
    ['anything else', driverError('FATAL: database "game_wallet" does not exist on 10.0.4.17'), 'unavailable'],
    ['a value that is not an error', 'boom', 'unavailable'],
  ])('names %s in a fixed phrase', (_, error, reason) => {
    expect(publicDownReason(error)).toBe(reason);
  });

  it('reports a probe that does not answer as a timeout', async () => {
    const hang = new Promise(() => undefined);
    const error = await withTimeout(hang, 10, 'redis').catch((failure: unknown) => failure);
    expect(publicDownReason(error)).toBe('timeout');
  });
});
