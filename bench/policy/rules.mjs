// The signing policies the `sign-policy` scenario compares: one accept rule (no criteria), and 50 rules — ABI calldata
// and velocity rules among them — where the rule that accepts the benchmark's transaction comes last, so every
// request is evaluated against all 50.
export const SHOP = '0x1111111111111111111111111111111111111111';
const TRANSFER = 'function transfer(address to, uint256 amount)';
const address = (index) => `0x${index.toString(16).padStart(40, '0')}`;

export const ONE_RULE = [{ id: 'any-transaction', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [] }];

/**
 * 49 rules that apply to an EVM transaction from an API key but do not decide this one, then the one that accepts it;
 * `velocity: false` leaves out their velocity limits (what the rest costs without the count in Redis).
 */
export function fiftyRules({ velocity = true } = {}) {
  const limit = (criterion) => (velocity ? [criterion] : []);
  const rules = [];
  for (let index = 0; rules.length < 49; index += 1) {
    switch (index % 7) {
      case 0: // rejects a large ERC-20 transfer: reads the calldata by ABI, does not hold
        rules.push({ id: `no-large-${index}`, action: 'reject', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmData', function: TRANSFER, conditions: [{ param: 'amount', operator: '>', value: String(10n ** 24n + BigInt(index)) }] }] });
        break;
      case 1: // accepts transfers to other shops only
        rules.push({ id: `other-shop-${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmData', function: TRANSFER, conditions: [{ param: 'to', operator: 'in', values: [address(index + 1000), address(index + 2000)] }] }] });
        break;
      case 2: // another chain id
        rules.push({ id: `chain-${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmChainId', operator: 'in', values: [String(100_000 + index)] }, ...limit({ type: 'velocity', scope: 'wallet', windowSeconds: 86_400, maxCount: 1_000 })] });
        break;
      case 3: // an approve, not a transfer
        rules.push({ id: `approve-${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmData', function: 'function approve(address spender, uint256 amount)', conditions: [{ param: 'spender', operator: 'in', values: [SHOP] }] }] });
        break;
      case 4: // a value cap that this zero-value call is under, on a rule limited to another API key
        rules.push({ id: `other-key-${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], credentials: { apiKeyIds: [`0190a0a0-0000-7000-8000-${String(index).padStart(12, '0')}`] }, criteria: [{ type: 'evmValue', operator: '<=', value: '1' }] });
        break;
      case 5: // no contract creation and a fee cap this transaction is over
        rules.push({ id: `cheap-${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmContractCreation', allowed: false }, { type: 'evmFee', operator: '<=', value: '1' }] });
        break;
      default: // other addresses called
        rules.push({ id: `to-${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmAddress', operator: 'in', values: Array.from({ length: 20 }, (_, n) => address(3000 + index * 20 + n)) }] });
    }
  }
  rules.push({
    id: 'shop-transfers',
    action: 'accept',
    operation: 'transaction',
    chains: ['evm'],
    criteria: [
      { type: 'evmChainId', operator: 'in', values: ['8453'] },
      { type: 'evmData', function: TRANSFER, conditions: [{ param: 'to', operator: 'in', values: [SHOP] }, { param: 'amount', operator: '<=', value: '10000000' }] },
      ...limit({ type: 'velocity', scope: 'game', windowSeconds: 86_400, maxCount: 1_000_000_000 }),
    ],
  });
  return rules;
}

/** An ERC-20 transfer of 10 units to the shop on Base: the calldata by hand (selector a9059cbb, two 32-byte words). */
export function shopTransfer() {
  const word = (hex) => hex.replace(/^0x/, '').padStart(64, '0');
  return { chainId: '8453', to: SHOP, gasLimit: '60000', maxFeePerGas: '1000', maxPriorityFeePerGas: '1', data: `0xa9059cbb${word(SHOP)}${word((10).toString(16))}` };
}
