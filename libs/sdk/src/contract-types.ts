/*
 * The platform's wire types, as types only: the build inlines them into index.d.ts, so the published package carries
 * neither the contracts library nor any of its code.
 */
// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only: nothing of contracts reaches the emitted JavaScript
export type {
  CredentialKind,
  Criterion,
  ErrorCode,
  Page,
  PolicyDecision,
  PolicyDeniedDetails,
  PolicyDifferenceView,
  PolicyEvaluationRequest,
  PolicyEvaluationView,
  PolicyReplayView,
  PolicyRule,
  SigningOperation,
  SigningPolicy,
  SigningPolicyDraftView,
  SigningPolicyInput,
  SigningPolicyVersionView,
  SigningPolicyView,
  SigningRules,
  SolInstructionAllowance,
  VelocityCriterion,
  CreatedWebhookEndpointView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEndpointInput,
  WebhookEndpointView,
  WebhookEvent,
  WebhookEventType,
} from '@game-wallet/contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only, as above
export type {
  ChainName,
  EvmSignedTransactionView,
  EvmTransactionRequest,
  IssuedToken,
  Jwks,
  PlayerView,
  ProfileClaims,
  ProfileView,
  PublicJwk,
  SignatureView,
  SignedTransactionView,
  SolanaSignedTransactionView,
  SuiSignedTransactionView,
  TransactionRequest,
  TypedDataRequest,
  WalletAddresses,
  WalletView,
} from '@game-wallet/contracts/views';
