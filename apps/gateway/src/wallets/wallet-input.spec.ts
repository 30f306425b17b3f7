import { AppError } from '@game-wallet/contracts';
import { parseSignBody, parseSignTransactionBody, parseSignTypedDataBody, parseWalletQuery } from './wallet-input';

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

describe(parseSignTypedDataBody.name, () => {
  const typed = { domain: { chainId: 1 }, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: 'x' } };
  const nested = (levels: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level += 1) {
      value = [value];
    }
    return value;
  };
  const refusal = (body: unknown): string | undefined => {
    try {
      parseSignTypedDataBody(body);
      return undefined;
    } catch (error) {
      return `${(error as AppError).code}: ${(error as AppError).message}`;
    }
  };

  it('takes typed data within its bounds', () => {
    expect(refusal(typed)).toBeUndefined();
    expect(refusal({ ...typed, message: { a: nested(31) } })).toBeUndefined();
  });

  it.each([
    ['a message nested 5,000 levels deep', { message: { a: nested(5000) } }, 'VALIDATION_FAILED: message: must not nest objects and arrays more than 32 levels deep'],
    ['a domain nested 5,000 levels deep', { domain: { x: nested(5000) } }, 'VALIDATION_FAILED: domain: must not nest objects and arrays more than 32 levels deep'],
    ['a message one level too deep', { message: { a: nested(32) } }, 'VALIDATION_FAILED: message: must not nest objects and arrays more than 32 levels deep'],
    ['an array of 1,025 items', { message: { a: new Array(1025).fill(0) } }, 'VALIDATION_FAILED: message.a: must have at most 1024 items'],
    ['a lone surrogate', { message: { a: 'x\udc00' } }, 'VALIDATION_FAILED: message.a: must be well-formed Unicode (it holds a lone surrogate)'],
    ['a primary type inherited from Object.prototype', { primaryType: 'toString' }, 'VALIDATION_FAILED: primaryType: toString is not among the types'],
    ['EIP712Domain as the primary type', { primaryType: 'EIP712Domain', types: { ...typed.types, EIP712Domain: [] } }, 'VALIDATION_FAILED: primaryType: EIP712Domain is not among the types'],
    ['a field type of 32,650 [] then x', { types: { A: [{ name: 'a', type: `${'[]'.repeat(32_650)}x` }] } }, 'VALIDATION_FAILED: types.A.0.type: must be an EIP-712 type'],
    ['nine array dimensions', { types: { A: [{ name: 'a', type: `uint8${'[]'.repeat(9)}` }] } }, 'VALIDATION_FAILED: types.A.0.type: must be an EIP-712 type'],
    ['a type name that is not an identifier', { types: { 'A B': [{ name: 'a', type: 'string' }] }, primaryType: 'A B' }, 'VALIDATION_FAILED: types.A B: a type name must be an identifier'],
    ['65 types', { types: Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`T${index}`, []])), primaryType: 'T0' }, 'VALIDATION_FAILED: types: must define at most 64 types'],
    ['129 fields', { types: { A: Array.from({ length: 129 }, (_, index) => ({ name: `f${index}`, type: 'string' })) } }, 'VALIDATION_FAILED: types.A: must have at most 128 fields'],
  ])('refuses %s with 400 VALIDATION_FAILED naming the field', (_, change, message) => {
    expect(refusal({ ...typed, ...change })).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

describe(parseSignTransactionBody.name, () => {
  const refusal = (transaction: Record<string, unknown>): string | undefined => {
    try {
      parseSignTransactionBody({ chain: 'evm', transaction: { chainId: 1, ...transaction } });
      return undefined;
    } catch (error) {
      return (error as AppError).message;
    }
  };

  it('takes the largest value of each field', () => {
    expect(refusal({ chainId: (2n ** 64n - 1n).toString(), value: (2n ** 256n - 1n).toString(), maxFeePerGas: `0x${'f'.repeat(64)}`, gasLimit: (2n ** 64n - 1n).toString(), nonce: Number.MAX_SAFE_INTEGER })).toBeUndefined();
  });

  it.each([
    ['a 78-digit value', { value: '9'.repeat(78) }, 'transaction.value: must be at most 2^256-1 (uint256)'],
    ['a 78-digit fee', { maxFeePerGas: '9'.repeat(78) }, 'transaction.maxFeePerGas: must be at most 2^256-1 (uint256)'],
    ['a 78-digit gasLimit', { gasLimit: '9'.repeat(78) }, 'transaction.gasLimit: must be at most 2^64-1 (uint64)'],
    ['gas of 2^64', { gasLimit: '0x10000000000000000' }, 'transaction.gasLimit: must be at most 2^64-1 (uint64)'],
    ['a 78-digit nonce', { nonce: '9'.repeat(78) }, 'transaction.nonce: must be at most 2^53-1'],
    ['a chain id of 2^64', { chainId: (2n ** 64n).toString() }, 'transaction.chainId: must be a chain id from 1 to 2^64-1'],
    ['chain id 0', { chainId: 0 }, 'transaction.chainId: must be a chain id from 1 to 2^64-1'],
  ])('refuses %s with a message naming the field', (_, transaction, message) => {
    expect(refusal(transaction)).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

describe('EIP-1559 fees', () => {
  it('names a fee that is not a number without comparing it (the comparison must not throw)', () => {
    expect(() => parseSignTransactionBody({ chain: 'evm', transaction: { chainId: 1, maxFeePerGas: '1', maxPriorityFeePerGas: "' OR 1=1 --" } })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: 'transaction.maxPriorityFeePerGas: must be a whole number, decimal or 0x hex' }) as AppError,
    );
  });

  it('refuses a priority fee above the max fee, naming it', () => {
    expect(() => parseSignTransactionBody({ chain: 'evm', transaction: { chainId: 1, maxFeePerGas: '0', maxPriorityFeePerGas: '1000000' } })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: 'transaction.maxPriorityFeePerGas: must not be more than maxFeePerGas' }) as AppError,
    );
  });
});
