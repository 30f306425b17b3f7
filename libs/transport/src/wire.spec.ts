import { parseWireRequests } from './wire';

describe(parseWireRequests.name, () => {
  const valid = { i: '1', p: 'core.ping', r: 'gw:reply:x', t: 123, q: 'req', d: { payload: {} } };

  it('reads a batch of requests from field m', () => {
    expect(parseWireRequests(['m', JSON.stringify([valid, { ...valid, i: '2' }])])).toEqual({
      requests: [valid, { ...valid, i: '2' }],
      malformed: 0,
    });
  });

  it('reads a single request object as a batch of one', () => {
    expect(parseWireRequests(['m', JSON.stringify(valid)])).toEqual({ requests: [valid], malformed: 0 });
  });

  it('keeps the valid requests of a batch and counts the malformed ones', () => {
    expect(parseWireRequests(['m', JSON.stringify([valid, { ...valid, t: 'soon' }, null])])).toEqual({ requests: [valid], malformed: 2 });
  });

  it.each([[['m', '{not json']], [['x', JSON.stringify([valid])]]])('rejects an unreadable entry %#', (fields) => {
    expect(parseWireRequests(fields)).toEqual({ requests: [], malformed: 1 });
  });
});
