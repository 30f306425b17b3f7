/** Injection token of the validated {@link WalletConfig}. */
export const WALLET_CONFIG = Symbol('WALLET_CONFIG');
