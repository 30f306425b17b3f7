import { parseSignBody, parseWalletQuery } from './wallet-input';

describe(parseWalletQuery.name, () => {
  it.each([[{}, { includeProfile: false }], [{ include: 'profile' }, { includeProfile: true }], [{ chain: 'sui', other: 'x' }, { includeProfile: false, chain: 'sui' }]])(
    'reads %p',
    (query, expected) => {
      expect(parseWalletQuery(query)).toEqual(expected);
    },
  );

  it.each([[{ include: 'wallet' }], [{ include: '' }], [{ chain: 'btc' }], [{ chain: ['evm', 'sol'] }], [{ include: ['profile', 'profile'] }]])('refuses %p with INVALID_QUERY', (query) => {
    expect(() => parseWalletQuery(query)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });
});

describe(parseSignBody.name, () => {
  it('decodes utf8 (the default), hex (with or without 0x) and base64', () => {
    expect(parseSignBody({ chain: 'evm', message: 'hé' }).message).toEqual(Buffer.from('hé'));
    expect(parseSignBody({ chain: 'sol', message: '0xdeadBEEF', encoding: 'hex' }).message).toEqual(Buffer.from('deadbeef', 'hex'));
    expect(parseSignBody({ chain: 'sol', message: 'deadbeef', encoding: 'hex' }).message).toEqual(Buffer.from('deadbeef', 'hex'));
    expect(parseSignBody({ chain: 'sui', message: 'aGk=', encoding: 'base64' }).message).toEqual(Buffer.from('hi'));
  });

  it.each([
    [{ chain: 'evm', message: 'abc', encoding: 'hex' }],
    [{ chain: 'evm', message: 'zz', encoding: 'hex' }],
    [{ chain: 'evm', message: 'aGk', encoding: 'base64' }],
    [{ chain: 'evm', message: 'a$b=', encoding: 'base64' }],
    [{ chain: 'btc', message: 'x' }],
    [{ chain: 'evm', message: 1 }],
    [{ chain: 'evm', message: 'x', encoding: 'latin1' }],
    [{ chain: 'evm', message: 'x', extra: true }],
    [{ chain: 'evm', message: 'x'.repeat(4097) }],
  ])('refuses %p with VALIDATION_FAILED', (body) => {
    expect(() => parseSignBody(body)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('accepts exactly 4 KiB once decoded', () => {
    expect(parseSignBody({ chain: 'evm', message: 'ff'.repeat(4096), encoding: 'hex' }).message).toHaveLength(4096);
  });
});
