import { QueryFailedError } from 'typeorm';
import { AppError } from '@game-wallet/contracts';
import { DatabaseOutage, isDatabaseUnavailable } from './database-outage';

const pgError = (code: string, message = 'error'): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['an admin shutdown (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['the server starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['a statement timeout (57014)', pgError('57014', 'canceling statement due to statement timeout')],
    ['a read-only server (25006)', pgError('25006', 'cannot execute INSERT in a read-only transaction')],
    ['too many connections (53300)', pgError('53300')],
    ['a connection exception (08006)', pgError('08006')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a connection that died', new Error('Connection terminated unexpectedly')],
    ['a server that stopped answering (client-side query timeout)', new Error('Query read timeout')],
    ['the same wrapped by TypeORM', new QueryFailedError('SELECT 1', [], pgError('57P01'))],
    ['a refused connection inside an AggregateError (IPv4 and IPv6)', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', pgError('23505')],
    ['a syntax error (42601)', pgError('42601')],
    ['a permission error (42501)', pgError('42501')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('DatabaseOutage.translate', () => {
  it('answers a database outage with 503 SERVICE_UNAVAILABLE and Retry-After 1, without the driver text', () => {
    const translated = new DatabaseOutage().translate(pgError('57P01', 'terminating connection for user postgres at db-host'));
    expect(translated?.toPayload()).toEqual(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 1 }));
    expect(JSON.stringify(translated?.toPayload())).not.toContain('db-host');
  });

  it('leaves other failures, and errors already in the API shape, to the transport', () => {
    const outage = new DatabaseOutage();
    expect(outage.translate(pgError('23505'))).toBeUndefined();
    expect(outage.translate(new AppError('WALLET_NOT_FOUND', 'No wallet'))).toBeUndefined();
  });
});
