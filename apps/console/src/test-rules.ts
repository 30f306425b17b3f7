import type { PolicyRule } from '@game-wallet/contracts/views';

/** Test data: rules that, together, hold every criterion type (each of its variants), for the console's tests. */
export const KEY = '0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b';
export const ADDRESSES = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222'];

export const EXAMPLES: PolicyRule[] = [
  { id: 'any-message', action: 'accept', operation: 'message', criteria: [] },
  {
    id: 'shop',
    description: 'The shop contract only',
    action: 'accept',
    operation: 'transaction',
    chains: ['evm'],
    credentials: { kinds: ['apiKey'], apiKeyIds: [KEY] },
    criteria: [
      { type: 'evmAddress', operator: 'in', values: ADDRESSES },
      { type: 'evmValue', operator: '<=', value: '10' },
      { type: 'evmChainId', operator: 'not in', values: ['1', '10', '137', '8453', '42161'] },
      { type: 'evmFee', operator: '<', value: '21000000000000' },
      { type: 'evmContractCreation', allowed: false },
      { type: 'evmData', function: 'function transfer(address to, uint256 amount)', conditions: [{ param: 'amount', operator: '<=', value: '5' }, { param: 'to', operator: 'in', values: ADDRESSES }] },
      { type: 'evmData', function: 'approve(address,uint256)', conditions: [] },
    ],
  },
  { id: 'creation', action: 'reject', operation: 'transaction', chains: ['evm'], credentials: { apiKeyIds: [KEY, KEY, KEY, KEY] }, criteria: [{ type: 'evmContractCreation', allowed: true }] },
  {
    id: 'orders',
    action: 'accept',
    operation: 'typed-data',
    chains: ['evm'],
    credentials: { kinds: ['profile', 'apiKey'] },
    criteria: [
      { type: 'evmTypedDataVerifyingContract', operator: 'in', values: ADDRESSES },
      { type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Order'] },
      { type: 'evmTypedDataChainId', operator: 'in', values: ['8453'] },
      { type: 'evmTypedDataField', path: 'message.amount', operator: '>=', value: '0x10' },
      { type: 'evmTypedDataField', path: 'message.items.0.to', operator: 'not in', values: ADDRESSES },
      { type: 'velocity', scope: 'profile', windowSeconds: 86_400, maxCount: 3 },
    ],
  },
  {
    id: 'greetings',
    action: 'accept',
    operation: 'message',
    chains: ['evm', 'sol', 'sui'],
    criteria: [
      { type: 'messagePattern', pattern: '^hello .*$', match: true },
      { type: 'messagePattern', pattern: 'transfer', match: false },
      { type: 'messageLength', operator: '<=', value: '256' },
      { type: 'velocity', scope: 'wallet', windowSeconds: 90, maxCount: 10, maxValue: '1000' },
    ],
  },
  {
    id: 'sol',
    action: 'accept',
    operation: 'transaction',
    chains: ['sol'],
    criteria: [
      { type: 'solProgram', operator: 'in', values: ['11111111111111111111111111111111'] },
      {
        type: 'solInstruction',
        allowed: [
          { program: 'system', instruction: 'transferSol' },
          { program: 'spl-token', instruction: 'transferChecked', mints: ['So11111111111111111111111111111111111111112'], maxAmount: '1000' },
          { program: 'memo' },
          { program: 'compute-budget', instruction: 'setComputeUnitPrice' },
        ],
      },
      { type: 'solLamports', operator: '<=', value: '50000000' },
      { type: 'solComputeUnitPrice', operator: '<=', value: '1000' },
      { type: 'solPriorityFee', operator: '==', value: '0' },
      { type: 'velocity', scope: 'game', windowSeconds: 7_200, maxValue: '5000000000' },
    ],
  },
  {
    id: 'sui',
    action: 'reject',
    operation: 'transaction',
    chains: ['sui'],
    credentials: { kinds: ['profile'] },
    criteria: [
      { type: 'suiMoveCall', operator: 'not in', values: ['0x2::coin::*'] },
      { type: 'suiTransfers', allowed: false },
      { type: 'suiTransfers', allowed: true },
      { type: 'suiGasBudget', operator: '>', value: '50000000' },
      { type: 'suiPublish', allowed: false },
      { type: 'suiPublish', allowed: true },
    ],
  },
];

