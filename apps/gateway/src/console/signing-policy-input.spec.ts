import { AppError, Criterion, DEFAULT_SIGNING_POLICY, PolicyRule, rulesOfPolicy } from '@game-wallet/contracts';
import { etagOf, parseEvaluation, parseIfMatch, parseReplay, parseSigningPolicyInput, parseSigningRules } from './signing-policy-input';

const wallet = '0190a0a0-0000-7000-8000-000000000001';
const shop = '0x1111111111111111111111111111111111111111';
const programId = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const rule = (criteria: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'r1', action: 'accept', operation: 'transaction', chains: ['evm'], criteria, ...extra });
const failure = (call: () => unknown): string => {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    return (error as AppError).message;
  }
  throw new Error('accepted');
};

/** One criterion of every type, with every field it has. */
const EVERY_CRITERION: Criterion[] = [
  { type: 'evmAddress', operator: 'in', values: [shop] },
  { type: 'evmValue', operator: '<=', value: '1000' },
  { type: 'evmChainId', operator: 'not in', values: ['1', '8453'] },
  { type: 'evmFee', operator: '<', value: '10' },
  { type: 'evmContractCreation', allowed: false },
  { type: 'evmData', function: 'function transfer(address to, uint256 amount)', conditions: [{ param: 'to', operator: 'in', values: [shop] }, { param: '1', operator: '<=', value: '0x10' }] },
  { type: 'evmTypedDataVerifyingContract', operator: 'in', values: [shop] },
  { type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Permit'] },
  { type: 'evmTypedDataChainId', operator: 'in', values: ['8453'] },
  { type: 'evmTypedDataField', path: 'message.spender', operator: '==', value: shop },
  { type: 'evmTypedDataField', path: 'message.items.0.to', operator: 'not in', values: ['a', 'b'] },
  { type: 'messagePattern', pattern: '^Sign in to [A-Za-z ]+: nonce [0-9]+$', match: true },
  { type: 'messageLength', operator: '<=', value: '200' },
  { type: 'solProgram', operator: 'in', values: [programId] },
  { type: 'solInstruction', allowed: [{ program: 'system', instruction: 'transferSol' }, { program: 'spl-token', instruction: 'transferChecked', mints: [programId], maxAmount: '5' }, { program: programId }] },
  { type: 'solLamports', operator: '<=', value: '1000000' },
  { type: 'solComputeUnitPrice', operator: '<=', value: '5000' },
  { type: 'solPriorityFee', operator: '<=', value: '100000' },
  { type: 'suiMoveCall', operator: 'in', values: ['0x2::coin::*'] },
  { type: 'suiTransfers', allowed: true },
  { type: 'suiGasBudget', operator: '<=', value: '10000000' },
  { type: 'suiPublish', allowed: false },
  { type: 'velocity', scope: 'wallet', windowSeconds: 3600, maxCount: 10 },
  { type: 'velocity', scope: 'game', windowSeconds: 60, maxValue: '1000' },
];

describe(parseSigningRules.name, () => {
  it('takes every criterion type with its exact fields', () => {
    const rules = EVERY_CRITERION.map((criterion, index): PolicyRule => ({ id: `rule-${index}`, action: 'accept', operation: 'transaction', criteria: [criterion] }));
    expect(parseSigningRules({ rules })).toEqual({ rules });
  });

  it('takes a rule with every field, and no rule at all', () => {
    const full = { id: 'A.b_c-9', description: 'Shop purchases', action: 'reject', operation: 'message', chains: ['evm', 'sol'], credentials: { kinds: ['apiKey'], apiKeyIds: [wallet] }, criteria: [] };
    expect(parseSigningRules({ rules: [full] })).toEqual({ rules: [full] });
    expect(parseSigningRules({ rules: [] })).toEqual({ rules: [] });
  });

  it("takes the default policy's rules as the wallet converts them", () => {
    const rules = rulesOfPolicy(DEFAULT_SIGNING_POLICY);
    expect(parseSigningRules(rules)).toEqual(rules);
  });

  it.each([
    ['an unknown criterion type', [{ type: 'btcValue', operator: '<=', value: '1' }], 'rules.0.criteria.0.type: not a criterion type'],
    ['a field a criterion does not have', [{ type: 'evmValue', operator: '<=', value: '1', unit: 'wei' }], 'rules.0.criteria.0: unknown field unit'],
    ['a list operator on a number', [{ type: 'evmValue', operator: 'in', value: '1' }], 'rules.0.criteria.0.operator: must be one of <=, >=, <, >, =='],
    ['a value that is not decimal', [{ type: 'evmValue', operator: '<=', value: '0x10' }], 'rules.0.criteria.0.value: must be a whole number in decimal digits'],
    ['a value of 79 digits', [{ type: 'evmFee', operator: '<=', value: '1'.repeat(79) }], 'rules.0.criteria.0.value: must be a whole number in decimal digits'],
    ['a number where a string goes', [{ type: 'evmValue', operator: '<=', value: 1 }], 'rules.0.criteria.0.value: must be a string of decimal digits'],
    ['an address that is not one', [{ type: 'evmAddress', operator: 'in', values: ['0x12'] }], 'rules.0.criteria.0.values.0: must be a 0x-prefixed 20-byte hex address'],
    ['1,001 values', [{ type: 'evmChainId', operator: 'in', values: new Array(1001).fill('1') }], 'rules.0.criteria.0.values: must have at most 1000 items'],
    ['a Solana id that is not base58', [{ type: 'solProgram', operator: 'in', values: ['0OIl'.repeat(10)] }], 'rules.0.criteria.0.values.0: must be a base58 id of 32 to 44 characters'],
    ['a Sui target of 201 characters', [{ type: 'suiMoveCall', operator: 'in', values: ['x'.repeat(201)] }], 'rules.0.criteria.0.values.0: must be at most 200 characters'],
    ['a function of 1,025 characters', [{ type: 'evmData', function: 'f'.repeat(1025), conditions: [] }], 'rules.0.criteria.0.function: must be at most 1024 characters'],
    ['a pattern of 513 characters', [{ type: 'messagePattern', pattern: 'a'.repeat(513), match: true }], 'rules.0.criteria.0.pattern: must be at most 512 characters'],
    ['a path of 257 characters', [{ type: 'evmTypedDataField', path: 'm'.repeat(257), operator: '==', value: 'x' }], 'rules.0.criteria.0.path: must be at most 256 characters'],
    ['a control character in a pattern', [{ type: 'messagePattern', pattern: 'a\u0000', match: true }], 'rules.0.criteria.0.pattern: must not contain control characters'],
    ['a velocity window under a minute', [{ type: 'velocity', scope: 'wallet', windowSeconds: 59, maxCount: 1 }], 'rules.0.criteria.0.windowSeconds: must be at least 60'],
    ['a velocity window over 30 days', [{ type: 'velocity', scope: 'wallet', windowSeconds: 2_592_001, maxCount: 1 }], 'rules.0.criteria.0.windowSeconds: must be at most 2592000 (30 days)'],
    ['a velocity window of a fraction', [{ type: 'velocity', scope: 'wallet', windowSeconds: 60.5, maxCount: 1 }], 'rules.0.criteria.0.windowSeconds: must be a whole number of seconds'],
    ['a velocity limit without maximum', [{ type: 'velocity', scope: 'wallet', windowSeconds: 60 }], 'rules.0.criteria.0: needs maxCount, maxValue or both'],
    ['a velocity count of 0', [{ type: 'velocity', scope: 'wallet', windowSeconds: 60, maxCount: 0 }], 'rules.0.criteria.0.maxCount: must be at least 1'],
    ['a velocity count over 10^9', [{ type: 'velocity', scope: 'wallet', windowSeconds: 60, maxCount: 1_000_000_001 }], 'rules.0.criteria.0.maxCount: must be at most 1000000000'],
    ['an unknown Solana program name', [{ type: 'solInstruction', allowed: [{ program: 'stake' }] }], 'rules.0.criteria.0.allowed.0.program: must be system, spl-token, token-2022, associated-token, memo, compute-budget or a base58 program id'],
    ['an operator that is none', [{ type: 'evmTypedDataField', path: 'message.a', operator: '~', value: 'x' }], 'rules.0.criteria.0.operator: must be one of <=, >=, <, >, ==, in, not in'],
    ['21 criteria', new Array(21).fill({ type: 'suiPublish', allowed: false }), 'rules.0.criteria: must have at most 20 items'],
    ['21 conditions', [{ type: 'evmData', function: 'function f(uint256 a)', conditions: new Array(21).fill({ param: 'a', operator: '==', value: '1' }) }], 'rules.0.criteria.0.conditions: must have at most 20 items'],
  ])('refuses %s, naming the field', (_, criteria, message) => {
    expect(failure(() => parseSigningRules({ rules: [rule(criteria)] }))).toBe(message);
  });

  it.each([
    ['an id with a space', { id: 'my rule' }, 'rules.0.id: must be 1 to 64 letters, digits, _, . or -, starting with a letter or digit'],
    ['an id of 65 characters', { id: 'a'.repeat(65) }, 'rules.0.id: must be 1 to 64 letters, digits, _, . or -, starting with a letter or digit'],
    ['a description of 501 characters', { description: 'd'.repeat(501) }, 'rules.0.description: must be at most 500 characters'],
    ['an unknown action', { action: 'allow' }, 'rules.0.action: must be accept or reject'],
    ['an unknown operation', { operation: 'sign' }, 'rules.0.operation: must be one of message, transaction, typed-data'],
    ['an unknown chain', { chains: ['btc'] }, 'rules.0.chains.0: must be one of evm, sol, sui'],
    ['no chain', { chains: [] }, 'rules.0.chains: must name a chain (leave it out for every chain)'],
    ['an API key id that is not a UUID', { credentials: { apiKeyIds: ['key-1'] } }, 'rules.0.credentials.apiKeyIds.0: must be a UUID'],
    ['101 API key ids', { credentials: { apiKeyIds: new Array(101).fill(wallet) } }, 'rules.0.credentials.apiKeyIds: must have at most 100 items'],
    ['an unknown credential kind', { credentials: { kinds: ['console'] } }, 'rules.0.credentials.kinds.0: must be apiKey or profile'],
    ['a field a rule does not have', { priority: 1 }, 'rules.0: unknown field priority'],
  ])('refuses a rule with %s', (_, change, message) => {
    expect(failure(() => parseSigningRules({ rules: [rule([], change)] }))).toBe(message);
  });

  it('refuses 101 rules and a field beside rules', () => {
    expect(failure(() => parseSigningRules({ rules: Array.from({ length: 101 }, (_, index) => rule([], { id: `r${index}` })) }))).toBe('rules: must have at most 100 items');
    expect(failure(() => parseSigningRules({ rules: [], version: 3 }))).toBe('unknown field version');
  });
});

describe(parseSigningPolicyInput.name, () => {
  it('takes rules, and the first shape (deprecated) as before', () => {
    expect(parseSigningPolicyInput({ rules: [] })).toEqual({ rules: [] });
    expect(parseSigningPolicyInput(DEFAULT_SIGNING_POLICY)).toEqual(DEFAULT_SIGNING_POLICY);
  });

  it('reads a body with rules as rules, and any other as the first shape', () => {
    expect(failure(() => parseSigningPolicyInput({ rules: 'all' }))).toBe('rules: must be a list');
    expect(failure(() => parseSigningPolicyInput({ ...DEFAULT_SIGNING_POLICY, evm: {} }))).toMatch(/^evm\.chainIds: /);
    expect(failure(() => parseSigningPolicyInput([]))).toBe('The body must be a JSON object');
  });
});

describe(parseEvaluation.name, () => {
  const credential = { kind: 'apiKey' };

  it('takes each operation with the payload its signing route takes', () => {
    const message = { operation: 'message', chain: 'sol', credential, payload: 'aGk=' };
    const evm = { operation: 'transaction', chain: 'evm', credential: { kind: 'apiKey', apiKeyId: wallet }, walletId: wallet, payload: { chainId: 1, to: shop, value: '10' }, policy: 'draft' };
    const sui = { operation: 'transaction', chain: 'sui', credential: { kind: 'profile' }, payload: 'AAAA' };
    const typed = { operation: 'typed-data', chain: 'evm', credential, payload: { domain: {}, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: 'x' } } };
    expect(parseEvaluation(message)).toEqual(message);
    expect(parseEvaluation(evm)).toEqual({ ...evm, payload: { chainId: '1', to: shop, value: '10' } });
    expect(parseEvaluation(sui)).toEqual(sui);
    expect(parseEvaluation(typed)).toEqual(typed);
  });

  it.each([
    ['a message that is not base64', { operation: 'message', chain: 'evm', credential, payload: 'hi!' }, 'payload: must be base64'],
    ['a message over 4 KiB', { operation: 'message', chain: 'evm', credential, payload: Buffer.alloc(4097).toString('base64') }, 'payload: must be at most 4096 bytes once decoded'],
    ['an EVM transaction without chain id', { operation: 'transaction', chain: 'evm', credential, payload: { to: shop } }, 'payload.chainId: Invalid input'],
    ['an EVM transaction with an unknown field', { operation: 'transaction', chain: 'evm', credential, payload: { chainId: 1, from: shop } }, 'payload: unknown field from'],
    ['a Solana transaction as an object', { operation: 'transaction', chain: 'sol', credential, payload: { chainId: 1 } }, 'payload: must be a base64 string'],
    ['typed data on sol', { operation: 'typed-data', chain: 'sol', credential, payload: { domain: {}, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: 'x' } } }, 'chain: typed data is signed on evm only'],
    ['an unknown operation', { operation: 'sign', chain: 'evm', credential, payload: 'aGk=' }, 'operation: must be one of message, transaction, typed-data'],
    ['an unknown chain', { operation: 'transaction', chain: 'btc', credential, payload: 'aGk=' }, 'chain: must be one of evm, sol, sui'],
    ['an unknown credential kind', { operation: 'message', chain: 'evm', credential: { kind: 'console' }, payload: 'aGk=' }, 'credential.kind: must be apiKey or profile'],
    ['an API key id that is not a UUID', { operation: 'message', chain: 'evm', credential: { kind: 'apiKey', apiKeyId: 'k' }, payload: 'aGk=' }, 'credential.apiKeyId: must be a UUID'],
    ['a wallet id that is not a UUID', { operation: 'message', chain: 'evm', credential, walletId: 'w-1', payload: 'aGk=' }, 'walletId: must be a UUID'],
    ['an unknown policy', { operation: 'message', chain: 'evm', credential, payload: 'aGk=', policy: 'next' }, 'policy: must be active or draft'],
  ])('refuses %s, naming the field', (_, body, message) => {
    expect(failure(() => parseEvaluation(body))).toBe(message);
  });
});

describe(parseReplay.name, () => {
  it('takes an ISO date-time, or nothing', () => {
    expect(parseReplay({})).toEqual({});
    expect(parseReplay({ since: '2026-11-01T00:00:00Z' })).toEqual({ since: '2026-11-01T00:00:00Z' });
    expect(parseReplay({ since: '2026-11-01T00:00:00.000+01:00' })).toEqual({ since: '2026-11-01T00:00:00.000+01:00' });
    expect(failure(() => parseReplay({ since: 'yesterday' }))).toBe('since: must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z');
  });
});

describe(parseIfMatch.name, () => {
  it('reads a strong ETag as its version; absent and * as any version', () => {
    expect(parseIfMatch('"0"')).toBe(0);
    expect(parseIfMatch(' "12" ')).toBe(12);
    expect(parseIfMatch(etagOf(7))).toBe(7);
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('*')).toBeUndefined();
  });

  it.each([['W/"1"'], ['1'], ['"01"'], ['"1", "2"'], ['""'], ['"-1"'], ['"1e3"'], [['"1"', '"2"']]])('refuses %p with 400', (header) => {
    expect(failure(() => parseIfMatch(header))).toBe('If-Match: must be the ETag a GET answered (a version in quotes, e.g. "3") or *');
  });
});
