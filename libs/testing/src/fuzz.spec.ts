import { HOSTILE, Random, RawJson, fuzzSeed, jsonPlaces, pathText, toJsonText, withChange, withMember } from './fuzz';
import { parseRawResponse, rawRequestBytes } from './raw-http';

describe(Random.name, () => {
  it('gives the same sequence for the same seed, and another for another seed', () => {
    const draw = (seed: number): number[] => {
      const random = new Random(seed);
      return Array.from({ length: 5 }, () => random.int(1000));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('takes the seed from FUZZ_SEED when it is a number', () => {
    expect(fuzzSeed({ FUZZ_SEED: '1234' })).toBe(1234);
    expect(fuzzSeed({ FUZZ_SEED: 'x' })).toEqual(expect.any(Number));
  });
});

describe(toJsonText.name, () => {
  it('writes raw parts as they are and keeps an own __proto__ key', () => {
    const body = withMember({ a: 1 }, '__proto__', new RawJson('1e400', '1e400'));
    expect(toJsonText(body)).toBe('{"a":1,"__proto__":1e400}');
    expect(toJsonText({ deep: HOSTILE.deep(new Random(1)) }).length).toBeGreaterThan(10_000);
  });
});

describe(withChange.name, () => {
  const body = { chain: 'evm', transaction: { nonce: 0, list: ['a', 'b'] } };

  it('changes one place and leaves the original alone', () => {
    expect(withChange(body, ['transaction', 'list', 1], () => 'x')).toEqual({ chain: 'evm', transaction: { nonce: 0, list: ['a', 'x'] } });
    expect(body.transaction.list).toEqual(['a', 'b']);
  });

  it('removes a place when the change gives undefined', () => {
    expect(withChange(body, ['transaction', 'nonce'], () => undefined)).toEqual({ chain: 'evm', transaction: { list: ['a', 'b'] } });
  });

  it('lists every place, containers first', () => {
    expect(jsonPlaces(body).map((place) => pathText(place.path))).toEqual(['(body)', 'chain', 'transaction', 'transaction.nonce', 'transaction.list', 'transaction.list[0]', 'transaction.list[1]']);
  });
});

describe(parseRawResponse.name, () => {
  it('reads a chunked answer after an interim 100 Continue', () => {
    const bytes = Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n');
    expect(parseRawResponse(bytes)).toEqual({ status: 404, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, text: '{"a":1}', json: { a: 1 } });
  });

  it('writes a request byte for byte, control characters included', () => {
    expect(rawRequestBytes(80, { method: 'GET', target: '/x', headers: [['x-api-key', 'a\u0001']], host: null }).toString('latin1')).toBe('GET /x HTTP/1.1\r\nx-api-key: a\u0001\r\nconnection: close\r\n\r\n');
  });
});
