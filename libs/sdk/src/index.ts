export { GameWallet, ProfileClient } from './game-wallet';
export type { GameWalletOptions, ProfileClientOptions } from './game-wallet';
export { GameWalletError } from './errors';
export type { GameWalletErrorCode, GameWalletErrorInit, SdkErrorCode } from './errors';
export type { ClientOptions, FetchFunction, FetchRequestInit, FetchResponse, RequestOptions } from './http-client';
export type {
  AuthenticateInput,
  CreatePlayerInput,
  CreatePlayerResult,
  HealthIndicator,
  HealthOptions,
  HealthReport,
  MessageEncoding,
  PlayersApi,
  ProfilesApi,
  SignInput,
  WalletQuery,
  WalletWithProfile,
  WalletsApi,
} from './types';
export { ProfileTokenVerifier, verifyProfileJwt } from './jwt/profile-token-verifier';
export type { ExpectedApp, JwksSource, ProfileClaimsCheck, ProfileClaimsOptions, ProfileTokenVerifierOptions } from './jwt/profile-token-verifier';
export type {
  ChainName,
  ErrorCode,
  IssuedToken,
  Jwks,
  PlayerView,
  ProfileClaims,
  ProfileView,
  PublicJwk,
  SignatureView,
  SignedTransactionView,
  EvmSignedTransactionView,
  SolanaSignedTransactionView,
  SuiSignedTransactionView,
  TransactionRequest,
  EvmTransactionRequest,
  TypedDataRequest,
  WalletAddresses,
  WalletView,
} from './contract-types';
