import { parseWireRequest } from './wire';

describe(parseWireRequest.name, () => {
  const valid = { i: '1', p: 'core.ping', r: 'gw:reply:x', t: 123, q: 'req', d: { payload: {} } };

  it('reads the request from field m', () => {
    expect(parseWireRequest(['m', JSON.stringify(valid)])).toEqual(valid);
  });

  it.each([
    [['m', '{not json']],
    [['x', JSON.stringify(valid)]],
    [['m', JSON.stringify({ ...valid, t: 'soon' })]],
    [['m', JSON.stringify({ ...valid, p: undefined })]],
  ])('rejects a malformed entry %#', (fields) => {
    expect(parseWireRequest(fields)).toBeUndefined();
  });
});
