import type { ChainName } from '@game-wallet/contracts/views';

/** The chain families every wallet has an address on, as the console names them. */
export const CHAINS: { id: ChainName; label: string }[] = [
  { id: 'evm', label: 'EVM' },
  { id: 'sol', label: 'Solana' },
  { id: 'sui', label: 'Sui' },
];
