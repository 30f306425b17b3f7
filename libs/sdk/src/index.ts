export { ConsoleClient, GameWallet, ProfileClient } from './game-wallet';
export type { ConsoleClientOptions, GameWalletOptions, ProfileClientOptions } from './game-wallet';
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
  IfMatchOptions,
  MessageEncoding,
  PageQuery,
  PlayersApi,
  ProfilesApi,
  ReplayInput,
  SignInput,
  SigningPolicyApi,
  SigningPolicyDraftApi,
  WalletQuery,
  WalletWithProfile,
  WalletsApi,
} from './types';
export type { ConsoleTeamApi, InvitationAcceptance, OperatorChange } from './console-team';
export type { ConsoleAuditApi } from './console-audit';
export type { ConsoleWebhooksApi } from './console-webhooks';
export type { ApiKeyChange, ConsoleApiKeysApi, SigningKeyInput } from './console-api-keys';
export { requestSignerFromCryptoKey, requestSignerFromPem, requestSigningKeyId } from './signing/request-signer';
export type { RequestSigner, RequestSigningAlgorithm, RequestSigningPublicJwk, SigningCryptoKey, WebCryptoRequestSigner } from './signing/request-signer';
export { ProfileTokenVerifier, verifyProfileJwt } from './jwt/profile-token-verifier';
export type { ExpectedApp, JwksSource, ProfileClaimsCheck, ProfileClaimsOptions, ProfileTokenVerifierOptions } from './jwt/profile-token-verifier';
export type * from './contract-types';
export type { ConsoleAccountApi, ConsoleAccountView, ConsoleSessionApi, ConsoleSessionEntryView, PasskeyView, RecoveryCodesView, StepUpInput, StepUpView, TotpEnrollmentView } from './console-account';
