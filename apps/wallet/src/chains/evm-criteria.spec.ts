import { Criterion, EvmTransactionRequest, TypedDataRequest } from '@game-wallet/contracts';
import * as ethers from 'ethers';
import { Interface, Transaction, TransactionLike, getAddress } from 'ethers';
import { SigningFacts } from './chain-signer';
import { STORED_CALLDATA_BYTES, evm, storedEvmFacts } from './evm';

/** The request a game backend sends for a transaction a dapp built with ethers. */
function requestOf(transaction: Transaction): EvmTransactionRequest {
  const quantity = (value: bigint | null) => (value === null ? undefined : value.toString());
  return {
    type: transaction.type === 0 ? 0 : 2,
    chainId: transaction.chainId.toString(),
    nonce: String(transaction.nonce),
    to: transaction.to,
    value: transaction.value.toString(),
    data: transaction.data,
    gasLimit: transaction.gasLimit.toString(),
    gasPrice: quantity(transaction.gasPrice),
    maxFeePerGas: quantity(transaction.maxFeePerGas),
    maxPriorityFeePerGas: quantity(transaction.maxPriorityFeePerGas),
  };
}

const shop = getAddress(`0x${'33'.repeat(20)}`);
const player = getAddress(`0x${'44'.repeat(20)}`);
const stranger = getAddress(`0x${'55'.repeat(20)}`);
const token = getAddress(`0x${'a0'.repeat(20)}`);

const transactionFacts = async (fields: TransactionLike): Promise<SigningFacts> =>
  (await evm.transaction(requestOf(Transaction.from({ type: 2, chainId: 1, to: token, gasLimit: 21_000, maxFeePerGas: 1_000, maxPriorityFeePerGas: 1, ...fields })))).facts;
const typedDataFacts = (typedData: TypedDataRequest): SigningFacts => (evm.typedData as (request: TypedDataRequest) => { facts: SigningFacts })(typedData).facts;
const judge = (criterion: Criterion, facts: SigningFacts) => evm.criterion(criterion, facts);
const result = (criterion: Criterion, facts: SigningFacts) => judge(criterion, facts).result;

const erc20 = new Interface(['function transfer(address to, uint256 amount)', 'function approve(address spender, uint256 amount)']);
const erc721 = new Interface(['function transferFrom(address from, address to, uint256 tokenId)', 'function safeTransferFrom(address from, address to, uint256 tokenId)']);
const erc1155 = new Interface(['function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)']);
const call = (data: string) => transactionFacts({ data });

describe('EVM transaction facts', () => {
  it('are plain JSON: chain id, to (EIP-55), value, the most the fees may burn, contract creation and the calldata', async () => {
    const data = erc20.encodeFunctionData('transfer', [shop, 5n]);
    const facts = await transactionFacts({ to: token.toLowerCase(), value: 7n, data });
    expect(facts).toEqual({ operation: 'transaction', chain: 'evm', nativeValue: '7', chainId: '1', to: token, value: '7', fee: '21000000', contractCreation: false, data });
    expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
  });

  it('count the fee as gasLimit × the highest fee per gas offered, legacy or EIP-1559', async () => {
    expect((await transactionFacts({ type: 0, gasPrice: 1_001, maxFeePerGas: null, maxPriorityFeePerGas: null })).fee).toBe('21021000');
    expect((await transactionFacts({ maxFeePerGas: 1_001, maxPriorityFeePerGas: 1 })).fee).toBe('21021000');
  });

  it('mark a contract creation: no to address', async () => {
    expect(await transactionFacts({ to: null, data: '0x6000' })).toMatchObject({ to: null, contractCreation: true, data: '0x6000' });
  });

  it('are stored with calldata past 4 KiB as its selector and length only', async () => {
    const small = await call(erc1155.encodeFunctionData('safeTransferFrom', [player, shop, 5n, 1n, `0x${'00'.repeat(STORED_CALLDATA_BYTES - 260)}`]));
    expect(storedEvmFacts(small)).toBe(small);
    const large = await call(erc1155.encodeFunctionData('safeTransferFrom', [player, shop, 5n, 1n, `0x${'00'.repeat(STORED_CALLDATA_BYTES)}`]));
    const stored = storedEvmFacts(large);
    expect(stored).toEqual({ ...large, data: undefined, dataSelector: '0xf242432a', dataLength: (String(large.data).length - 2) / 2, dataTruncated: true });
    expect(stored).not.toHaveProperty('data');
    const idIs5: Criterion = { type: 'evmData', function: 'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)', conditions: [{ param: 'id', operator: '==', value: '5' }] };
    expect(result(idIs5, large)).toBe('holds');
    expect(judge(idIs5, stored)).toEqual({ result: 'unknown', observed: `safeTransferFrom(address,address,uint256,uint256,bytes) calldata of ${stored.dataLength} bytes, not stored` });
    expect(judge({ type: 'evmData', function: 'function transfer(address to, uint256 amount)', conditions: [] }, stored)).toEqual({ result: 'fails', observed: 'selector 0xf242432a' });
  });
});

describe('EVM transaction criteria', () => {
  it('evmAddress: allows a listed to address in any case, refuses another, and cannot decide a contract creation', async () => {
    const facts = await transactionFacts({ to: shop });
    expect(judge({ type: 'evmAddress', operator: 'in', values: [shop.toLowerCase()] }, facts)).toEqual({ result: 'holds', observed: `to ${shop}` });
    expect(judge({ type: 'evmAddress', operator: 'in', values: [stranger] }, facts)).toEqual({ result: 'fails', observed: `to ${shop}` });
    expect(result({ type: 'evmAddress', operator: 'not in', values: [stranger] }, facts)).toBe('holds');
    expect(result({ type: 'evmAddress', operator: 'not in', values: [shop.toUpperCase().replace('0X', '0x')] }, facts)).toBe('fails');
    expect(result({ type: 'evmAddress', operator: 'in', values: [shop] }, await transactionFacts({ to: null, data: '0x6000' }))).toBe('unknown');
    expect(result({ type: 'evmAddress', operator: 'not in', values: [shop] }, await transactionFacts({ to: null, data: '0x6000' }))).toBe('unknown');
  });

  it('evmValue: compares the wei moved as a whole number with every operator', async () => {
    const eleven = await transactionFacts({ value: 11n });
    expect(judge({ type: 'evmValue', operator: '<=', value: '10' }, eleven)).toEqual({ result: 'fails', observed: 'value 11 wei' });
    expect(result({ type: 'evmValue', operator: '<=', value: '11' }, eleven)).toBe('holds');
    expect(result({ type: 'evmValue', operator: '<', value: '11' }, eleven)).toBe('fails');
    expect(result({ type: 'evmValue', operator: '>', value: '10' }, eleven)).toBe('holds');
    expect(result({ type: 'evmValue', operator: '>=', value: '12' }, eleven)).toBe('fails');
    expect(result({ type: 'evmValue', operator: '==', value: '0xb' }, eleven)).toBe('holds');
    expect(result({ type: 'evmValue', operator: '<=', value: (10n ** 30n).toString() }, await transactionFacts({ value: 10n ** 30n + 1n }))).toBe('fails');
  });

  it('evmValue: a stored value that is not a whole number cannot be decided', async () => {
    const facts = { ...(await transactionFacts({ value: 1n })), value: '1.5' };
    expect(result({ type: 'evmValue', operator: '<=', value: '10' }, facts)).toBe('unknown');
    expect(result({ type: 'evmValue', operator: '<=', value: '10' }, { ...facts, value: undefined })).toBe('unknown');
  });

  it('evmChainId: allows a listed chain id, refuses another, compared as numbers', async () => {
    const base = await transactionFacts({ chainId: 8453 });
    expect(judge({ type: 'evmChainId', operator: 'in', values: ['1', '8453'] }, base)).toEqual({ result: 'holds', observed: 'chain id 8453' });
    expect(judge({ type: 'evmChainId', operator: 'in', values: ['1'] }, await transactionFacts({ chainId: 2 }))).toEqual({ result: 'fails', observed: 'chain id 2' });
    expect(result({ type: 'evmChainId', operator: 'not in', values: ['08453'] }, base)).toBe('fails');
    expect(result({ type: 'evmChainId', operator: 'not in', values: ['1'] }, base)).toBe('holds');
  });

  it('evmFee: bounds gasLimit × the highest fee per gas', async () => {
    const facts = await transactionFacts({ maxFeePerGas: 1_001 });
    expect(judge({ type: 'evmFee', operator: '<=', value: '21000000' }, facts)).toEqual({ result: 'fails', observed: 'fee 21021000 wei' });
    expect(result({ type: 'evmFee', operator: '<=', value: '21021000' }, facts)).toBe('holds');
  });

  it('evmContractCreation: refuses a creation unless allowed, and holds for a call', async () => {
    const creation = await transactionFacts({ to: null, data: '0x6000' });
    const payment = await transactionFacts({ to: shop });
    expect(judge({ type: 'evmContractCreation', allowed: false }, creation)).toEqual({ result: 'fails', observed: 'a contract creation' });
    expect(result({ type: 'evmContractCreation', allowed: true }, creation)).toBe('holds');
    expect(judge({ type: 'evmContractCreation', allowed: false }, payment)).toEqual({ result: 'holds', observed: `a call to ${shop}` });
  });

  it('transaction criteria cannot decide typed data, nor typed-data criteria a transaction', async () => {
    const typed = typedDataFacts(permit({}));
    expect(result({ type: 'evmValue', operator: '<=', value: '1' }, typed)).toBe('unknown');
    expect(result({ type: 'evmContractCreation', allowed: true }, typed)).toBe('unknown');
    expect(result({ type: 'evmTypedDataPrimaryType', operator: 'not in', values: ['Permit'] }, await transactionFacts({}))).toBe('unknown');
    expect(result({ type: 'evmTypedDataField', path: 'message.value', operator: '<=', value: '1' }, await transactionFacts({}))).toBe('unknown');
  });
});

describe('evmData: a call of one function, its parameters decoded with the policy fragment', () => {
  const transfer = (conditions: ({ param: string } & ({ operator: '<=' | '>=' | '<' | '>' | '=='; value: string } | { operator: 'in' | 'not in'; values: string[] }))[]): Criterion => ({
    type: 'evmData',
    function: 'function transfer(address to, uint256 amount)',
    conditions,
  });
  const toShopUpTo1M = transfer([
    { param: 'to', operator: 'in', values: [shop.toLowerCase()] },
    { param: 'amount', operator: '<=', value: '1000000' },
  ]);

  it('ERC-20 transfer: allows the listed recipient up to the amount, refuses more or another recipient', async () => {
    expect(judge(toShopUpTo1M, await call(erc20.encodeFunctionData('transfer', [shop, 1_000_000n])))).toEqual({ result: 'holds', observed: `transfer(address,uint256) to ${shop}, amount 1000000` });
    expect(judge(toShopUpTo1M, await call(erc20.encodeFunctionData('transfer', [shop, 1_000_001n])))).toEqual({ result: 'fails', observed: 'transfer(address,uint256) amount 1000001' });
    expect(judge(toShopUpTo1M, await call(erc20.encodeFunctionData('transfer', [stranger, 1n])))).toEqual({ result: 'fails', observed: `transfer(address,uint256) to ${stranger}` });
  });

  it('ERC-20 transfer: parameters named by index, and a fragment without the function keyword', async () => {
    const byIndex: Criterion = { type: 'evmData', function: 'transfer(address,uint256)', conditions: [{ param: '0', operator: 'not in', values: [stranger] }, { param: '1', operator: '>', value: '0' }] };
    expect(result(byIndex, await call(erc20.encodeFunctionData('transfer', [shop, 1n])))).toBe('holds');
    expect(judge(byIndex, await call(erc20.encodeFunctionData('transfer', [stranger, 1n])))).toEqual({ result: 'fails', observed: `transfer(address,uint256) 0 ${stranger}` });
    expect(result(byIndex, await call(erc20.encodeFunctionData('transfer', [shop, 0n])))).toBe('fails');
  });

  it('ERC-20 approve: allows the listed spender up to the amount, refuses another spender or more', async () => {
    const approve: Criterion = {
      type: 'evmData',
      function: 'function approve(address spender, uint256 amount)',
      conditions: [{ param: 'spender', operator: 'in', values: [shop] }, { param: 'amount', operator: '<=', value: '1000000' }],
    };
    expect(result(approve, await call(erc20.encodeFunctionData('approve', [shop, 10n ** 6n])))).toBe('holds');
    expect(judge(approve, await call(erc20.encodeFunctionData('approve', [stranger, 1n])))).toEqual({ result: 'fails', observed: `approve(address,uint256) spender ${stranger}` });
    expect(judge(approve, await call(erc20.encodeFunctionData('approve', [shop, 2n ** 256n - 1n])))).toEqual({ result: 'fails', observed: `approve(address,uint256) amount ${2n ** 256n - 1n}` });
  });

  it('ERC-721 transferFrom and safeTransferFrom(address,address,uint256): to in the list, tokenId equal', async () => {
    for (const name of ['transferFrom', 'safeTransferFrom']) {
      const nft: Criterion = {
        type: 'evmData',
        function: `function ${name}(address from, address to, uint256 tokenId)`,
        conditions: [{ param: 'to', operator: 'in', values: [shop] }, { param: 'tokenId', operator: '==', value: '7' }],
      };
      expect(result(nft, await call(erc721.encodeFunctionData(name, [player, shop, 7n])))).toBe('holds');
      expect(judge(nft, await call(erc721.encodeFunctionData(name, [player, shop, 8n])))).toEqual({ result: 'fails', observed: `${name}(address,address,uint256) tokenId 8` });
      expect(result(nft, await call(erc721.encodeFunctionData(name, [player, stranger, 7n])))).toBe('fails');
    }
  });

  it('ERC-1155 safeTransferFrom: id equal, value at most', async () => {
    const items: Criterion = {
      type: 'evmData',
      function: 'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
      conditions: [{ param: 'id', operator: '==', value: '5' }, { param: 'value', operator: '<=', value: '10' }],
    };
    expect(result(items, await call(erc1155.encodeFunctionData('safeTransferFrom', [player, shop, 5n, 10n, '0x'])))).toBe('holds');
    expect(judge(items, await call(erc1155.encodeFunctionData('safeTransferFrom', [player, shop, 6n, 10n, '0x1234'])))).toEqual({ result: 'fails', observed: 'safeTransferFrom(address,address,uint256,uint256,bytes) id 6' });
    expect(judge(items, await call(erc1155.encodeFunctionData('safeTransferFrom', [player, shop, 5n, 11n, '0x'])))).toEqual({ result: 'fails', observed: 'safeTransferFrom(address,address,uint256,uint256,bytes) value 11' });
  });

  it('refuses a call of another function (its selector), a plain payment and a contract creation', async () => {
    expect(judge(toShopUpTo1M, await call(erc20.encodeFunctionData('approve', [shop, 1n])))).toEqual({ result: 'fails', observed: 'selector 0x095ea7b3' });
    const nft721: Criterion = { type: 'evmData', function: 'function transferFrom(address from, address to, uint256 tokenId)', conditions: [] };
    expect(judge(nft721, await call(erc721.encodeFunctionData('safeTransferFrom', [player, shop, 7n])))).toEqual({ result: 'fails', observed: 'selector 0x42842e0e' });
    expect(judge(toShopUpTo1M, await transactionFacts({ to: shop, value: 1n }))).toEqual({ result: 'fails', observed: 'no calldata' });
    expect(result(toShopUpTo1M, await transactionFacts({ to: shop, data: '0xa9059c' }))).toBe('fails');
    expect(judge(toShopUpTo1M, await transactionFacts({ to: null, data: erc20.encodeFunctionData('transfer', [shop, 1n]) }))).toEqual({ result: 'fails', observed: 'a contract creation, not a function call' });
  });

  it('cannot decide calldata that is not the exact ABI encoding: trailing bytes, a dirty address word, truncation', async () => {
    const data = erc20.encodeFunctionData('transfer', [shop, 1n]);
    for (const lax of [`${data}00`, `${data}${'00'.repeat(32)}`, `${data.slice(0, 10)}ff${data.slice(12)}`, data.slice(0, 74)]) {
      expect(judge(toShopUpTo1M, await call(lax))).toEqual({ result: 'unknown', observed: 'transfer(address,uint256) calldata that is not its exact ABI encoding' });
    }
    const bool = new Interface(['function setApprovalForAll(address operator, bool approved)']);
    const approved = bool.encodeFunctionData('setApprovalForAll', [shop, true]);
    const approval: Criterion = { type: 'evmData', function: 'function setApprovalForAll(address operator, bool approved)', conditions: [{ param: 'approved', operator: '==', value: 'false' }] };
    expect(judge(approval, await call(approved))).toEqual({ result: 'fails', observed: 'setApprovalForAll(address,bool) approved true' });
    expect(result(approval, await call(`${approved.slice(0, -1)}2`))).toBe('unknown');
  });

  it('decides on the first failing condition, before one it cannot decide', async () => {
    const facts = await call(erc20.encodeFunctionData('transfer', [shop, 5n]));
    const unnamed = transfer([{ param: 'recipient', operator: 'in', values: [shop] }]);
    expect(judge(unnamed, facts)).toEqual({ result: 'unknown', observed: 'transfer(address,uint256) no parameter recipient' });
    expect(result(transfer([{ param: 'recipient', operator: 'in', values: [shop] }, { param: 'amount', operator: '<', value: '5' }]), facts)).toBe('fails');
  });

  it('parses a fragment once, however many requests it reads', async () => {
    const from = jest.spyOn(ethers.FunctionFragment, 'from');
    const once: Criterion = { type: 'evmData', function: 'function  transfer(address to, uint256 amount)', conditions: [] };
    const facts = await call(erc20.encodeFunctionData('transfer', [shop, 5n]));
    expect([result(once, facts), result(once, facts), evm.criterionProblem(once)]).toEqual(['holds', 'holds', undefined]);
    expect(from.mock.calls.filter(([text]) => typeof text === 'string')).toEqual([[once.function]]); // ethers calls it again on what it lexed
    from.mockRestore();
  });
});

/** EIP-712 struct fields as its `encodeType` lists them: `address owner, uint256 value`. */
const fields = (list: string) => list.split(', ').map((field) => ({ name: field.split(' ')[1], type: field.split(' ')[0] }));

/** An EIP-2612 permit as a dapp asks a wallet to sign it (`eth_signTypedData_v4`). */
function permit({ domain, message }: { domain?: Record<string, unknown>; message?: Record<string, unknown> }): TypedDataRequest {
  return {
    domain: { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: token, ...domain },
    types: {
      EIP712Domain: fields('string name, string version, uint256 chainId, address verifyingContract'),
      Permit: fields('address owner, address spender, uint256 value, uint256 nonce, uint256 deadline'),
    },
    primaryType: 'Permit',
    message: { owner: player, spender: shop, value: '1000000', nonce: 0, deadline: '1893456000', ...message },
  };
}

describe('EVM typed data facts', () => {
  it('read each value as ethers signs it, so another spelling of the same value cannot slip past a rule', () => {
    const spelled = typedDataFacts(permit({ message: { spender: shop.slice(2).toLowerCase(), value: '0X10', nonce: ' 16', deadline: '0b10000' } }));
    expect(spelled.message).toMatchObject({ spender: shop.toLowerCase(), value: '16', nonce: '16', deadline: '16' });
    const rejectShop: Criterion = { type: 'evmTypedDataField', path: 'message.spender', operator: 'in', values: [shop] };
    expect(judge(rejectShop, spelled).result).toBe('holds');
    expect(judge({ type: 'evmTypedDataField', path: 'message.value', operator: 'not in', values: ['16'] }, spelled).result).toBe('fails');
    const flag: TypedDataRequest = { domain: { name: 'Game' }, types: { Claim: fields('bool ok') }, primaryType: 'Claim', message: { ok: 'false' } };
    // ethers signs the string "false" as true.
    expect(judge({ type: 'evmTypedDataField', path: 'message.ok', operator: '==', value: 'true' }, typedDataFacts(flag)).result).toBe('holds');
  });


  it('are the primary type, the domain read (chain id in decimal) and the message the signature covers', () => {
    expect(typedDataFacts(permit({ domain: { chainId: '0x2105' } }))).toEqual({
      operation: 'typed-data',
      chain: 'evm',
      nativeValue: '0',
      primaryType: 'Permit',
      domain: { chainId: '8453', verifyingContract: token.toLowerCase(), name: 'USD Coin', version: '2' },
      // As ethers encodes each for its type: addresses in lower case, integers in decimal.
      message: { owner: player.toLowerCase(), spender: shop.toLowerCase(), value: '1000000', nonce: '0', deadline: '1893456000' },
    });
    expect(typedDataFacts(permit({ domain: { chainId: undefined, verifyingContract: undefined, name: undefined, version: undefined } })).domain).toEqual({ chainId: null, verifyingContract: null });
  });

  it('keep only the fields the types declare, in nested structs and arrays too', () => {
    const order: TypedDataRequest = {
      domain: { name: 'Shop' },
      types: { Order: [{ name: 'items', type: 'Item[]' }, { name: 'buyer', type: 'address' }], Item: [{ name: 'to', type: 'address' }, { name: 'id', type: 'uint256' }] },
      primaryType: 'Order',
      message: { items: [{ to: shop, id: 1, note: 'x' }], buyer: player, spender: shop },
    };
    expect(typedDataFacts(order).message).toEqual({ items: [{ to: shop.toLowerCase(), id: '1' }], buyer: player.toLowerCase() });
  });

  it('refuse a domain chain id that is not a whole number (400), as before', () => {
    expect(() => typedDataFacts(permit({ domain: { chainId: 'abc' } }))).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});

describe('EVM typed-data criteria', () => {
  const permitFacts = typedDataFacts(permit({}));

  it('an EIP-2612 permit: allows the listed spender up to the value, refuses another spender or more', () => {
    const spender: Criterion = { type: 'evmTypedDataField', path: 'message.spender', operator: 'in', values: [shop.toLowerCase()] };
    const value: Criterion = { type: 'evmTypedDataField', path: 'message.value', operator: '<=', value: '1000000' };
    expect(judge(spender, permitFacts)).toEqual({ result: 'holds', observed: `message.spender ${shop}` });
    expect(result(value, permitFacts)).toBe('holds');
    expect(judge(spender, typedDataFacts(permit({ message: { spender: stranger } })))).toEqual({ result: 'fails', observed: `message.spender ${stranger}` });
    expect(judge(value, typedDataFacts(permit({ message: { value: '1000001' } })))).toEqual({ result: 'fails', observed: 'message.value 1000001' });
    expect(result(value, typedDataFacts(permit({ message: { value: 1_000_001 } })))).toBe('fails');
    expect(result(value, typedDataFacts(permit({ message: { value: '0xf4241' } })))).toBe('fails');
  });

  it('evmTypedDataField: a field missing, not a single value, or not a whole number for a number operator cannot be decided', () => {
    expect(judge({ type: 'evmTypedDataField', path: 'message.amount', operator: '<=', value: '1' }, permitFacts)).toEqual({ result: 'unknown', observed: 'no message.amount' });
    expect(result({ type: 'evmTypedDataField', path: 'domain.salt', operator: '==', value: '0x00' }, permitFacts)).toBe('unknown');
    expect(result({ type: 'evmTypedDataField', path: 'message.spender.0', operator: '==', value: '0' }, permitFacts)).toBe('unknown');
    expect(result({ type: 'evmTypedDataField', path: 'message.value', operator: '<=', value: '1' }, typedDataFacts(permit({ message: { value: 'lots' } })))).toBe('unknown');
    expect(result({ type: 'evmTypedDataField', path: 'message.value', operator: '<=', value: '1' }, typedDataFacts(permit({ message: { value: 1.5 } })))).toBe('unknown');
    expect(result({ type: 'evmTypedDataField', path: 'message', operator: 'in', values: ['x'] }, permitFacts)).toBe('unknown');
  });

  it('evmTypedDataField: reads array items and the domain, and compares text exactly', () => {
    const order = typedDataFacts({
      domain: { name: 'Shop' },
      types: { Order: [{ name: 'items', type: 'Item[]' }], Item: [{ name: 'to', type: 'address' }, { name: 'id', type: 'uint256' }] },
      primaryType: 'Order',
      message: { items: [{ to: shop, id: 1 }, { to: stranger, id: '2' }] },
    });
    expect(result({ type: 'evmTypedDataField', path: 'message.items.0.to', operator: '==', value: shop.toLowerCase() }, order)).toBe('holds');
    expect(judge({ type: 'evmTypedDataField', path: 'message.items.1.to', operator: 'in', values: [shop] }, order)).toEqual({ result: 'fails', observed: `message.items.1.to ${stranger}` });
    expect(result({ type: 'evmTypedDataField', path: 'message.items.1.id', operator: 'in', values: ['0x2'] }, order)).toBe('holds');
    expect(result({ type: 'evmTypedDataField', path: 'message.items.2.to', operator: 'not in', values: [shop] }, order)).toBe('unknown');
    expect(result({ type: 'evmTypedDataField', path: 'domain.name', operator: '==', value: 'Shop' }, order)).toBe('holds');
    expect(result({ type: 'evmTypedDataField', path: 'domain.name', operator: '==', value: 'shop' }, order)).toBe('fails');
  });

  it('evmTypedDataField: a key the types do not declare is not signed, so it is missing', () => {
    const facts = typedDataFacts(permit({ message: { recipient: shop } }));
    expect(result({ type: 'evmTypedDataField', path: 'message.recipient', operator: 'in', values: [shop] }, facts)).toBe('unknown');
  });

  it('evmTypedDataVerifyingContract: in and not in, any case; absent or not an address cannot be decided', () => {
    expect(judge({ type: 'evmTypedDataVerifyingContract', operator: 'in', values: [token.toLowerCase()] }, permitFacts)).toEqual({ result: 'holds', observed: `verifying contract ${token.toLowerCase()}` });
    expect(result({ type: 'evmTypedDataVerifyingContract', operator: 'in', values: [shop] }, permitFacts)).toBe('fails');
    expect(result({ type: 'evmTypedDataVerifyingContract', operator: 'not in', values: [shop] }, permitFacts)).toBe('holds');
    expect(result({ type: 'evmTypedDataVerifyingContract', operator: 'not in', values: [token] }, permitFacts)).toBe('fails');
    expect(judge({ type: 'evmTypedDataVerifyingContract', operator: 'not in', values: [shop] }, typedDataFacts(permit({ domain: { verifyingContract: undefined } })))).toEqual({
      result: 'unknown',
      observed: 'no domain.verifyingContract',
    });
    expect(result({ type: 'evmTypedDataVerifyingContract', operator: 'not in', values: [shop] }, typedDataFacts(permit({ domain: { verifyingContract: 'shop' } })))).toBe('unknown');
  });

  it('evmTypedDataPrimaryType: in and not in', () => {
    expect(judge({ type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Permit'] }, permitFacts)).toEqual({ result: 'holds', observed: 'primary type Permit' });
    expect(result({ type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Order'] }, permitFacts)).toBe('fails');
    expect(result({ type: 'evmTypedDataPrimaryType', operator: 'not in', values: ['Order'] }, permitFacts)).toBe('holds');
    expect(result({ type: 'evmTypedDataPrimaryType', operator: 'not in', values: ['Permit'] }, permitFacts)).toBe('fails');
  });

  it('evmTypedDataChainId: in and not in, as numbers; a domain without one cannot be decided', () => {
    const base = typedDataFacts(permit({ domain: { chainId: '0x2105' } }));
    expect(judge({ type: 'evmTypedDataChainId', operator: 'in', values: ['8453'] }, base)).toEqual({ result: 'holds', observed: 'domain chain id 8453' });
    expect(result({ type: 'evmTypedDataChainId', operator: 'in', values: ['1'] }, base)).toBe('fails');
    expect(result({ type: 'evmTypedDataChainId', operator: 'not in', values: ['1'] }, base)).toBe('holds');
    expect(result({ type: 'evmTypedDataChainId', operator: 'not in', values: ['8453'] }, base)).toBe('fails');
    expect(judge({ type: 'evmTypedDataChainId', operator: 'not in', values: ['1'] }, typedDataFacts(permit({ domain: { chainId: undefined } })))).toEqual({ result: 'unknown', observed: 'no domain.chainId' });
  });

  it('bounds what it observes to 200 characters', () => {
    const facts = typedDataFacts(permit({ message: { owner: player, spender: shop, value: '9'.repeat(70) } }));
    const { observed } = judge({ type: 'evmTypedDataField', path: `message.value`, operator: '==', value: '1' }, facts);
    expect(observed.length).toBeLessThanOrEqual(200);
    expect(observed).toMatch(/^message\.value 9+…?$/);
  });
});

describe('EVM criteria a policy states', () => {
  const problem = (criterion: unknown) => evm.criterionProblem(criterion as Criterion);

  it('accepts each criterion well stated', () => {
    const fine: Criterion[] = [
      { type: 'evmAddress', operator: 'in', values: [shop, shop.toLowerCase()] },
      { type: 'evmValue', operator: '<=', value: '0x10' },
      { type: 'evmChainId', operator: 'not in', values: ['1', '8453'] },
      { type: 'evmFee', operator: '<', value: '21000000' },
      { type: 'evmContractCreation', allowed: false },
      {
        type: 'evmData',
        function: 'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
        conditions: [{ param: 'to', operator: 'in', values: [shop] }, { param: '2', operator: '==', value: '5' }, { param: 'data', operator: '==', value: '0x' }],
      },
      { type: 'evmData', function: 'f(bool ok, bytes4 tag, string name, int8 delta)', conditions: [{ param: 'ok', operator: '==', value: 'true' }, { param: 'tag', operator: 'in', values: ['0xA9059CBB'] }, { param: 'name', operator: '==', value: 'sword' }, { param: 'delta', operator: '>=', value: '-5' }] },
      { type: 'evmTypedDataVerifyingContract', operator: 'in', values: [token] },
      { type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Permit', 'Order_2'] },
      { type: 'evmTypedDataChainId', operator: 'in', values: ['1'] },
      { type: 'evmTypedDataField', path: 'message.items.0.to', operator: 'in', values: [shop] },
      { type: 'evmTypedDataField', path: 'domain.name', operator: '==', value: 'USD Coin' },
    ];
    expect(fine.map((criterion) => [criterion.type, evm.criterionProblem(criterion)])).toEqual(fine.map((criterion) => [criterion.type, undefined]));
  });

  it('refuses addresses, chain ids, type names and amounts that are not ones, and operators that do not fit', () => {
    expect(problem({ type: 'evmAddress', operator: 'in', values: [shop, '0x1234'] })).toBe('values.1: 0x1234 is not an address (0x and 40 hex digits)');
    expect(problem({ type: 'evmAddress', operator: '<=', value: '1' })).toBe('operator: <= does not fit evmAddress (in, not in)');
    expect(problem({ type: 'evmTypedDataVerifyingContract', operator: 'in', values: ['shop.eth'] })).toMatch(/^values\.0: shop\.eth is not an address/);
    expect(problem({ type: 'evmChainId', operator: 'in', values: ['0x1'] })).toBe('values.0: 0x1 is not a chain id (decimal digits)');
    expect(problem({ type: 'evmTypedDataChainId', operator: 'in', values: [1] })).toBe('values.0: 1 is not a chain id (decimal digits)');
    expect(problem({ type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Permit(address owner)'] })).toBe('values.0: Permit(address owner) is not an EIP-712 type name');
    expect(problem({ type: 'evmValue', operator: '<=', value: '1.5' })).toBe('value: 1.5 is not a whole number (decimal digits or 0x hex)');
    expect(problem({ type: 'evmFee', operator: 'in', values: ['1'] })).toBe('operator: in does not fit evmFee (<=, >=, <, >, ==)');
    expect(problem({ type: 'evmContractCreation', allowed: 'no' })).toBe('allowed: must be true or false');
  });

  it('refuses typed-data paths outside message. and domain., too long or too deep, or with segments that are not fields', () => {
    const field = (path: unknown) => problem({ type: 'evmTypedDataField', path, operator: '==', value: '1' });
    expect(field('spender')).toMatch(/^path: spender must start with message\. or domain\./);
    expect(field('types.Permit')).toMatch(/^path: types\.Permit must start with message\. or domain\./);
    expect(field('message')).toMatch(/^path: message must start with/);
    expect(field(`message.${'a'.repeat(250)}`)).toBe('path: must be text of at most 256 characters');
    expect(field(`message${'.a'.repeat(16)}`)).toBe('path: 17 segments, more than 16');
    expect(field('message..to')).toBe('path:  is neither a field name nor an array index');
    expect(field('message.items[0]')).toBe('path: items[0] is neither a field name nor an array index');
    expect(problem({ type: 'evmTypedDataField', path: 'message.value', operator: '<=', value: 'lots' })).toBe('value: lots is not a whole number (decimal digits or 0x hex)');
  });

  it('refuses an evmData function that does not parse, is not a function, or has parameters it cannot read', () => {
    const data = (fragment: unknown, conditions: unknown[] = []) => problem({ type: 'evmData', function: fragment, conditions });
    expect(data('function transfer(address to, uint256 amount')).toMatch(/^function: not a function fragment \(/);
    expect(data('event Transfer(address indexed from, address indexed to, uint256 value)')).toMatch(/^function: not a function fragment \(invalid function fragment\)/);
    expect(data('function a(); function b()')).toMatch(/^function: not a function fragment/);
    expect(data('function f((address to, uint256 amount) order)')).toBe('function: parameter order is tuple(address,uint256): only address, bool, uintN, intN, bytesN, bytes and string parameters are read');
    expect(data('function f(address[] to)')).toMatch(/^function: parameter to is address\[\]/);
    expect(data(`function f(${Array.from({ length: 17 }, (_, at) => `uint256 a${at}`).join(', ')})`)).toBe('function: 17 parameters, more than 16');
    expect(data(`function f(uint256 ${'a'.repeat(1_024)})`)).toBe('function: must be a function fragment of at most 1024 characters');
    expect(data(5)).toBe('function: must be a function fragment of at most 1024 characters');
  });

  it('refuses evmData conditions on no one parameter, or that do not fit its type', () => {
    const data = (fragment: string, condition: Record<string, unknown>) => problem({ type: 'evmData', function: fragment, conditions: [condition] });
    const transfer = 'function transfer(address to, uint256 amount)';
    expect(data(transfer, { param: 'recipient', operator: 'in', values: [shop] })).toBe('conditions.0.param: recipient names no one parameter of transfer(address,uint256) (give its name, or its index from 0)');
    expect(data(transfer, { param: '2', operator: '<=', value: '1' })).toMatch(/^conditions\.0\.param: 2 names no one parameter/);
    expect(data('function transfer(address, uint256)', { param: 'to', operator: 'in', values: [shop] })).toMatch(/^conditions\.0\.param: to names no one parameter/);
    expect(data('function transfer(address, uint256)', { param: '1', operator: '<=', value: '10' })).toBeUndefined();
    expect(data('function f(address a, address a)', { param: 'a', operator: 'in', values: [shop] })).toMatch(/^conditions\.0\.param: a names no one parameter/);
    expect(data(transfer, { param: 'to', operator: '<=', value: '1' })).toBe('conditions.0.operator: <= does not fit to (address) (in, not in, ==)');
    expect(data(transfer, { param: 'to', operator: '==', value: 'shop' })).toBe('conditions.0.value: shop is not an address (0x and 40 hex digits)');
    expect(data(transfer, { param: 'amount', operator: 'in', values: ['1', 'many'] })).toBe('conditions.0.values.1: many is not a whole number (decimal digits or 0x hex)');
    expect(data('f(bool ok)', { param: 'ok', operator: '==', value: 'yes' })).toBe('conditions.0.value: yes is not true or false');
    expect(data('f(bytes32 id)', { param: 'id', operator: 'in', values: ['0x1234'] })).toBe('conditions.0.values.0: 0x1234 is not bytes32 (0x and 64 hex digits)');
    expect(problem({ type: 'evmData', function: transfer, conditions: Array.from({ length: 21 }, () => ({ param: 'amount', operator: '>', value: '0' })) })).toBe('conditions: must be a list of at most 20');
  });
});

describe('evmData reads static parameters as ethers decodes them', () => {
  const fragment = 'function f(address a, bool b, uint8 c, int16 d, bytes4 e, uint256 g, int256 h)';
  const coder = new Interface([fragment]);
  it.each([
    [getAddress(`0x${'ab'.repeat(20)}`), true, 255n, -32768n, '0xdeadbeef', 2n ** 256n - 1n, -1n],
    [getAddress(`0x${'00'.repeat(19)}01`), false, 0n, 32767n, '0x00000000', 0n, -(2n ** 255n)],
    [getAddress(`0x${'9f'.repeat(20)}`), true, 7n, -1n, '0x01020304', 12345678901234567890n, 2n ** 255n - 1n],
  ])('holds every parameter equal to the value ethers decodes (%s…)', async (...args) => {
    const data = coder.encodeFunctionData('f', args);
    const decoded = coder.decodeFunctionData('f', data).toArray().map((value) => (typeof value === 'string' ? value.toLowerCase() : String(value)));
    const names = ['a', 'b', 'c', 'd', 'e', 'g', 'h'];
    const criterion: Criterion = { type: 'evmData', function: fragment, conditions: names.map((param, index) => ({ param, operator: 'in', values: [decoded[index]] })) };
    expect(judge(criterion, await call(data)).result).toBe('holds');
    // An int16 whose sign bit is set but not extended, or a bool of 2, is not the canonical encoding: undecidable.
    const word = (index: number) => 10 + index * 64;
    const unextended = `${data.slice(0, word(3))}${'0'.repeat(60)}8000${data.slice(word(4))}`;
    const boolOf2 = `${data.slice(0, word(1))}${'0'.repeat(63)}2${data.slice(word(2))}`;
    expect([judge(criterion, await call(unextended)).result, judge(criterion, await call(boolOf2)).result]).toEqual(['unknown', 'unknown']);
  });
});
