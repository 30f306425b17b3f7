import { entryParts, parseWireRequests, replyMessage, replyParts } from './wire';

describe(parseWireRequests.name, () => {
  const valid = { i: '1', p: 'core.ping', r: 'gw:reply:x', t: 123, q: 'req', d: { payload: {} } };

  it('reads a batch of requests', () => {
    expect(parseWireRequests(JSON.stringify([valid, { ...valid, i: '2' }]))).toEqual({
      requests: [valid, { ...valid, i: '2' }],
      malformed: 0,
    });
  });

  it('reads a single request object as a batch of one', () => {
    expect(parseWireRequests(JSON.stringify(valid))).toEqual({ requests: [valid], malformed: 0 });
  });

  it('keeps the valid requests of a batch and counts the malformed ones', () => {
    expect(parseWireRequests(JSON.stringify([valid, { ...valid, t: 'soon' }, null]))).toEqual({ requests: [valid], malformed: 2 });
  });

  it('keeps the Redis server a request names, and leaves it out when it is not a string', () => {
    expect(parseWireRequests(JSON.stringify([{ ...valid, g: 'a1b2' }, { ...valid, i: '2', g: 7 }])).requests).toEqual([{ ...valid, g: 'a1b2' }, { ...valid, i: '2' }]);
  });

  it('rejects text that is not JSON', () => {
    expect(parseWireRequests('{not json')).toEqual({ requests: [], malformed: 1 });
  });
});

describe(entryParts.name, () => {
  it('finds the request text (m) and its signature (s) among the fields, in any order', () => {
    expect(entryParts(['s', 'k1.sig', 'm', '[]'])).toEqual({ text: '[]', signature: 'k1.sig' });
    expect(entryParts(['m', '[]'])).toEqual({ text: '[]' });
    expect(entryParts(['x', '1'])).toEqual({});
  });
});

describe(replyParts.name, () => {
  it('splits a reply message into its signature and its text (which may hold spaces)', () => {
    expect(replyParts(replyMessage('k1.sig', '[{"i":"1","d":"a b"}]'))).toEqual({ signature: 'k1.sig', text: '[{"i":"1","d":"a b"}]' });
    expect(replyParts('[]')).toEqual({ text: '[]' });
  });
});
