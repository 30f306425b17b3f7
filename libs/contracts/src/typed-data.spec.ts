import { parseTypedDataType, typedDataProblem } from './typed-data';
import { TypedDataRequest } from './wallet';

describe(parseTypedDataType.name, () => {
  it.each([
    ['uint256', { base: 'uint256', dimensions: 0 }],
    ['Person[]', { base: 'Person', dimensions: 1 }],
    ['bytes32[2][]', { base: 'bytes32', dimensions: 2 }],
    ['$_x9[0]', { base: '$_x9', dimensions: 1 }],
    [`uint8${'[]'.repeat(8)}`, { base: 'uint8', dimensions: 8 }],
  ])('reads %s', (type, expected) => {
    expect(parseTypedDataType(type)).toEqual(expected);
  });

  it.each([
    [''],
    ['9lives'],
    ['a b'],
    ['uint[x]'],
    ['uint[1'],
    ['uint]'],
    ['uint[]x'],
    [`uint8${'[]'.repeat(9)}`],
    [`a${'b'.repeat(256)}`],
    [`${'[]'.repeat(32_650)}x`],
    [`a${'[]'.repeat(32_650)}x`],
    ['Ünïcode'],
  ])('refuses %s', (type) => {
    expect(parseTypedDataType(type)).toBeUndefined();
  });
});

describe(typedDataProblem.name, () => {
  const typed: TypedDataRequest = { domain: { chainId: 1 }, types: { Mail: [{ name: 'to', type: 'Person' }], Person: [{ name: 'name', type: 'string' }] }, primaryType: 'Mail', message: {} };

  it('takes well-formed typed data', () => {
    expect(typedDataProblem(typed)).toBeUndefined();
    expect(typedDataProblem({ ...typed, types: { ...typed.types, EIP712Domain: [{ name: 'chainId', type: 'uint256' }] } })).toBeUndefined();
  });

  it.each(['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf'])('refuses %s, inherited from Object.prototype, as the primary type', (primaryType) => {
    expect(typedDataProblem({ ...typed, primaryType })).toMatch(/^primaryType: /);
  });

  it('refuses a shape the gateway would have refused, as the wallet must not trust it', () => {
    expect(typedDataProblem({ ...typed, types: null } as unknown as TypedDataRequest)).toBe('types: must be a JSON object');
    expect(typedDataProblem({ ...typed, message: [] } as unknown as TypedDataRequest)).toBe('message: must be a JSON object');
    expect(typedDataProblem({ ...typed, primaryType: 5 } as unknown as TypedDataRequest)).toBe('primaryType: must be a string');
    expect(typedDataProblem({ ...typed, types: { Mail: 'x' } } as unknown as TypedDataRequest)).toBe('types.Mail: must be a list of fields');
    expect(typedDataProblem({ ...typed, types: { Mail: [{ name: 1, type: 'string' }] } } as unknown as TypedDataRequest)).toMatch(/^types\.Mail\.0\.name: /);
  });
});
