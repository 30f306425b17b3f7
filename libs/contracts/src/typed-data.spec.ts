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

  /** `layers` layers of two types that each use both types of the next layer: 2^layers paths from Order. */
  const diamond = (layers: number): TypedDataRequest['types'] => {
    const types: TypedDataRequest['types'] = { Order: [{ name: 'a', type: 'A0' }, { name: 'b', type: 'B0' }] };
    for (let layer = 0; layer < layers; layer += 1) {
      const next = layer + 1 < layers ? [{ name: 'a', type: `A${layer + 1}` }, { name: 'b', type: `B${layer + 1}[]` }] : [{ name: 'x', type: 'uint8' }];
      types[`A${layer}`] = next;
      types[`B${layer}`] = next;
    }
    return types;
  };

  it('refuses types that reach each other in more than 1,024 ways (ethers walks every path), counting without walking them', () => {
    expect(typedDataProblem({ ...typed, types: diamond(9), primaryType: 'Order' })).toBeUndefined(); // 1,023 paths
    expect(typedDataProblem({ ...typed, types: diamond(10), primaryType: 'Order' })).toBe('types: the types Order uses reach each other in more than 1024 ways; use fewer nested types');
    expect(typedDataProblem({ ...typed, types: diamond(31), primaryType: 'Order' })).toMatch(/more than 1024 ways/);
  });

  it('refuses a type that uses itself, directly or through others', () => {
    expect(typedDataProblem({ ...typed, types: { Mail: [{ name: 'reply', type: 'Mail[]' }] } })).toBe('types.Mail: uses itself (EIP-712 types cannot be recursive)');
    expect(typedDataProblem({ ...typed, types: { Mail: [{ name: 'to', type: 'Person' }], Person: [{ name: 'last', type: 'Mail' }] } })).toMatch(/uses itself/);
  });
});
