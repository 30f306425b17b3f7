import { isFromAnotherServer } from './redis-streams.server';
import { WireRequest } from './wire';

describe(isFromAnotherServer.name, () => {
  const request = (g?: string): WireRequest => ({ i: '1', p: 'core.ping', r: 'gw:reply:x', t: 1, q: 'req', d: {}, ...(g === undefined ? {} : { g }) });

  it('drops a request written to another server than the one it was read from (a previous primary)', () => {
    expect(isFromAnotherServer(request('old-primary'), 'new-primary')).toBe(true);
  });

  it('runs a request read from the server it was written to', () => {
    expect(isFromAnotherServer(request('new-primary'), 'new-primary')).toBe(false);
  });

  it('drops a request that names a server when the reading server is not known yet', () => {
    expect(isFromAnotherServer(request('new-primary'), undefined)).toBe(true);
  });

  it('runs a request that names no server (a client that could not tell), or read where the server does not say', () => {
    expect(isFromAnotherServer(request(), 'new-primary')).toBe(false);
    expect(isFromAnotherServer(request(''), 'new-primary')).toBe(false);
    expect(isFromAnotherServer(request('old-primary'), '')).toBe(false);
  });
});
