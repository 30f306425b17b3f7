import {
  ApiKeyView,
  SignedRequests,
  SigningKeyView,
  AuditEntryView,
  AuditExportLineView,
  AuditExportRequest,
  ConsoleSessionInfo,
  ConsoleSessionView,
  CreatedApiKeyView,
  GameSummaryView,
  GameView,
  IssuedToken,
  Jwks,
  Page,
  PageRequest,
  ProfileView,
  ResolvedApiKey,
  RevocationCursors,
  RevocationPage,
} from './identity';
import { ServiceName } from './services';
import { CreatedWebhookEndpointView, OutboxEventInput, WebhookDeliveryStatus, WebhookDeliveryView, WebhookEndpointInput, WebhookEndpointView } from './webhooks';
import {
  ConsoleAccountView,
  ConsolePermission,
  ConsoleRole,
  ConsoleSessionEntryView,
  ConsoleSettingsView,
  CreatedInvitationView,
  InvitationPreview,
  InvitationView,
  OperatorStatus,
  OperatorView,
  PasskeyView,
  RecoveryCodesView,
  RoleGrant,
  SecondFactorChallengeView,
  SecondFactorInput,
  StepUpView,
  TotpEnrollmentView,
  WebAuthnOrigin,
} from './console-access';
import { ChainName, PlayerView, SignatureView, SignedTransactionView, TransactionRequest, TypedDataRequest, WalletAddresses, WalletView } from './wallet';
import { PolicyDifferenceView, PolicyEvaluationRequest, PolicyEvaluationView, PolicyReplayView, SigningPolicyDraftView, SigningPolicyInput, SigningPolicyVersionView, SigningPolicyView, SigningRules } from './signing-rules';

/**
 * Every message pattern on the transport, by service. A pattern is `<service>.<action>`, so the stream a request goes to
 * follows from its pattern. Request and response types are declared in {@link PatternContract}.
 */
export const PATTERNS = {
  identity: {
    ping: 'identity.ping',
    resolveApiKey: 'identity.apiKeys.resolve',
    touchApiKeys: 'identity.apiKeys.touch',
    listApiKeys: 'identity.apiKeys.list',
    createApiKey: 'identity.apiKeys.create',
    updateApiKey: 'identity.apiKeys.update',
    deleteApiKey: 'identity.apiKeys.delete',
    addSigningKey: 'identity.apiKeys.signingKeys.add',
    removeSigningKey: 'identity.apiKeys.signingKeys.remove',
    listGames: 'identity.games.list',
    createGame: 'identity.games.create',
    getGame: 'identity.games.get',
    createOrGetProfile: 'identity.profiles.createOrGet',
    getProfile: 'identity.profiles.get',
    authenticateProfile: 'identity.profiles.authenticate',
    revokeProfile: 'identity.profiles.revoke',
    getJwks: 'identity.tokens.jwks',
    listRevocations: 'identity.tokens.revocations',
    signIn: 'identity.console.signIn',
    passwordKey: 'identity.console.passwordKey',
    signOut: 'identity.console.signOut',
    getSession: 'identity.console.session',
    authorize: 'identity.console.authorize',
    completeSignIn: 'identity.console.secondFactor',
    stepUp: 'identity.console.stepUp',
    stepUpOptions: 'identity.console.stepUpOptions',
    updateAccount: 'identity.account.update',
    changePassword: 'identity.account.password',
    listOwnSessions: 'identity.account.sessions.list',
    endOwnSessions: 'identity.account.sessions.end',
    startTotp: 'identity.account.totp.start',
    confirmTotp: 'identity.account.totp.confirm',
    removeTotp: 'identity.account.totp.remove',
    renewRecoveryCodes: 'identity.account.recoveryCodes.renew',
    passkeyOptions: 'identity.account.passkeys.options',
    registerPasskey: 'identity.account.passkeys.register',
    removePasskey: 'identity.account.passkeys.remove',
    listOperators: 'identity.operators.list',
    updateOperator: 'identity.operators.update',
    removeOperator: 'identity.operators.remove',
    listOperatorSessions: 'identity.operators.sessions.list',
    endOperatorSessions: 'identity.operators.sessions.end',
    listInvitations: 'identity.invitations.list',
    createInvitation: 'identity.invitations.create',
    revokeInvitation: 'identity.invitations.revoke',
    previewInvitation: 'identity.invitations.preview',
    acceptInvitation: 'identity.invitations.accept',
    getSettings: 'identity.settings.get',
    updateSettings: 'identity.settings.update',
    listAudit: 'identity.audit.list',
    exportAudit: 'identity.audit.export',
    ingestEvents: 'identity.events.ingest',
    listWebhooks: 'identity.webhooks.list',
    createWebhook: 'identity.webhooks.create',
    updateWebhook: 'identity.webhooks.update',
    deleteWebhook: 'identity.webhooks.delete',
    rotateWebhookSecret: 'identity.webhooks.rotateSecret',
    testWebhook: 'identity.webhooks.test',
    listWebhookDeliveries: 'identity.webhooks.deliveries',
    redeliverWebhook: 'identity.webhooks.redeliver',
    redeliverFailedWebhooks: 'identity.webhooks.redeliverFailed',
  },
  wallet: {
    ping: 'wallet.ping',
    createOrGetWallet: 'wallet.wallets.createOrGet',
    getWallet: 'wallet.wallets.get',
    sign: 'wallet.wallets.sign',
    signTransaction: 'wallet.wallets.signTransaction',
    signTypedData: 'wallet.wallets.signTypedData',
    addresses: 'wallet.wallets.addresses',
    getSigningPolicy: 'wallet.policies.get',
    putSigningPolicy: 'wallet.policies.put',
    listSigningPolicyVersions: 'wallet.policies.versions',
    evaluateSigningPolicy: 'wallet.policies.evaluate',
    getSigningPolicyDraft: 'wallet.policies.draft.get',
    putSigningPolicyDraft: 'wallet.policies.draft.put',
    deleteSigningPolicyDraft: 'wallet.policies.draft.delete',
    listSigningPolicyDifferences: 'wallet.policies.draft.differences',
    replaySigningPolicyDraft: 'wallet.policies.draft.replay',
    activateSigningPolicyDraft: 'wallet.policies.draft.activate',
    listSignatures: 'wallet.signatures.list',
    exportAudit: 'wallet.audit.export',
  },
  core: {
    ping: 'core.ping',
    createPlayer: 'core.players.create',
    getPlayer: 'core.players.get',
    listPlayers: 'core.players.list',
  },
} as const satisfies Record<ServiceName, Record<string, string>>;

type ValuesOf<T> = T[keyof T];
export type Pattern = ValuesOf<{ [S in ServiceName]: ValuesOf<(typeof PATTERNS)[S]> }>;

/** Answer of every service's `ping`. */
export interface PingResponse {
  service: ServiceName;
  status: 'ok';
}

/** Request and response type of each pattern. */
export interface PatternContract {
  'identity.ping': { request: Record<string, never>; response: PingResponse };
  'identity.apiKeys.resolve': { request: { hash: string }; response: ResolvedApiKey | null };
  'identity.apiKeys.touch': { request: { uses: { keyId: string; at: number; signingKeyId?: string }[] }; response: { updated: number } };
  'identity.apiKeys.list': { request: { gameId: string }; response: { items: ApiKeyView[] } };
  'identity.apiKeys.create': { request: { gameId: string; name?: string }; response: CreatedApiKeyView };
  'identity.apiKeys.update': { request: { gameId: string; keyId: string; active?: boolean; signedRequests?: SignedRequests }; response: ApiKeyView };
  'identity.apiKeys.signingKeys.add': { request: { gameId: string; keyId: string; name?: string; publicKey: string | Record<string, unknown> }; response: SigningKeyView };
  'identity.apiKeys.signingKeys.remove': { request: { gameId: string; keyId: string; signingKeyId: string }; response: { deleted: true } };
  'identity.apiKeys.delete': { request: { gameId: string; keyId: string; revokeTokens?: boolean }; response: { deleted: true } };
  'identity.games.list': { request: PageRequest; response: Page<GameSummaryView> };
  'identity.games.create': { request: { name: string }; response: GameView };
  'identity.games.get': { request: { gameId: string }; response: GameView };
  'identity.profiles.createOrGet': { request: { externalKey: string }; response: ProfileView & { created: boolean } };
  'identity.profiles.get': { request: { profileId: string }; response: ProfileView };
  'identity.profiles.authenticate': { request: { profileId: string; duration: number }; response: IssuedToken };
  'identity.profiles.revoke': { request: { profileId: string }; response: { revokedBefore: number } };
  'identity.tokens.jwks': { request: Record<string, never>; response: Jwks };
  /** Paged: the first call without `after`, then with the `next` of the page before, until `next` is null. */
  'identity.tokens.revocations': { request: { after?: RevocationCursors; limit?: number }; response: RevocationPage };
  /**
   * `sealedPassword`: `consolePasswordDigest(email, password)` sealed to identity's password key (`sealTo`, the e-mail
   * as associated data), so neither the password nor a fast hash of it crosses Redis.
   */
  'identity.console.signIn': {
    request: { email: string; sealedPassword: string; ip: string; userAgent?: string; webauthn: WebAuthnOrigin };
    response: ConsoleSessionView | SecondFactorChallengeView;
  };
  /** The X25519 public key (raw, base64url) console passwords are sealed to. */
  'identity.console.passwordKey': { request: Record<string, never>; response: { publicKey: string } };
  'identity.console.signOut': { request: Record<string, never>; response: { signedOut: true } };
  'identity.console.session': { request: Record<string, never>; response: ConsoleSessionInfo };
  /**
   * Whether the operator principal may do `permission` (on `gameId` when it is about a game): 404 `GAME_NOT_FOUND`
   * for a game outside their grants, 403 `FORBIDDEN` when the role does not allow it, 401 `STEP_UP_REQUIRED` when it
   * needs a fresh second factor, 401 `INVALID_TOKEN` for an ended session. Asked by the services that own console data.
   */
  'identity.console.authorize': { request: { permission: ConsolePermission; gameId?: string }; response: { operatorId: string; roles: ConsoleRole[] } };
  /** Step 2 of a sign-in with a second factor. */
  'identity.console.secondFactor': {
    request: { challenge: string; factor: SecondFactorInput; ip: string; userAgent?: string; webauthn: WebAuthnOrigin };
    response: ConsoleSessionView;
  };
  /** `sealedPassword`: only for an operator without a second factor (sealed as at sign-in). */
  'identity.console.stepUp': { request: { factor?: SecondFactorInput; sealedPassword?: string; webauthn: WebAuthnOrigin }; response: StepUpView };
  'identity.console.stepUpOptions': { request: { webauthn: WebAuthnOrigin }; response: { passkey: Record<string, unknown> | null } };
  'identity.account.update': { request: { displayName: string }; response: ConsoleAccountView };
  /** Both passwords sealed as at sign-in (the operator's e-mail as associated data); ends the operator's other sessions. */
  'identity.account.password': { request: { sealedCurrent: string; sealedNew: string }; response: { endedSessions: number } };
  'identity.account.sessions.list': { request: Record<string, never>; response: { items: ConsoleSessionEntryView[] } };
  /** One session of the operator's (`sessionId`), or every other one (`others: true`). */
  'identity.account.sessions.end': { request: { sessionId?: string; others?: boolean }; response: { ended: number } };
  'identity.account.totp.start': { request: Record<string, never>; response: TotpEnrollmentView };
  'identity.account.totp.confirm': { request: { code: string }; response: RecoveryCodesView };
  'identity.account.totp.remove': { request: Record<string, never>; response: { removed: true } };
  'identity.account.recoveryCodes.renew': { request: Record<string, never>; response: RecoveryCodesView };
  'identity.account.passkeys.options': { request: { webauthn: WebAuthnOrigin }; response: Record<string, unknown> };
  'identity.account.passkeys.register': { request: { name: string; response: Record<string, unknown>; webauthn: WebAuthnOrigin }; response: PasskeyView };
  'identity.account.passkeys.remove': { request: { passkeyId: string }; response: { removed: true } };
  'identity.operators.list': { request: Record<string, never>; response: { items: OperatorView[] } };
  'identity.operators.update': { request: { operatorId: string; grants?: RoleGrant[]; status?: OperatorStatus }; response: OperatorView };
  'identity.operators.remove': { request: { operatorId: string }; response: { removed: true } };
  'identity.operators.sessions.list': { request: { operatorId: string }; response: { items: ConsoleSessionEntryView[] } };
  'identity.operators.sessions.end': { request: { operatorId: string; sessionId?: string }; response: { ended: number } };
  'identity.invitations.list': { request: Record<string, never>; response: { items: InvitationView[] } };
  /** `consoleUrl`: the console's public address, the link's base. */
  'identity.invitations.create': { request: { email: string; grants: RoleGrant[]; consoleUrl: string }; response: CreatedInvitationView };
  'identity.invitations.revoke': { request: { invitationId: string }; response: { revoked: true } };
  /** `tokenHash`: the SHA-256 (hex) of the link's token: the token itself never crosses Redis. */
  'identity.invitations.preview': { request: { tokenHash: string }; response: InvitationPreview };
  /** `sealedPassword`: sealed as at sign-in, with the invitation's e-mail. Signs the new operator in. */
  'identity.invitations.accept': {
    request: { tokenHash: string; sealedPassword: string; displayName: string; ip: string; userAgent?: string };
    response: ConsoleSessionView;
  };
  'identity.settings.get': { request: Record<string, never>; response: ConsoleSettingsView };
  'identity.settings.update': { request: { requireTwoFactor: boolean }; response: ConsoleSettingsView };
  'identity.audit.list': { request: PageRequest & { gameId: string }; response: Page<AuditEntryView> };
  /** Identity's part of a game's audit export: its chain's rows in order, at most `limit` (1–1,000). */
  'identity.audit.export': { request: AuditExportRequest; response: { lines: AuditExportLineView[] } };
  /** The services' outbox relays: events committed with their changes, for the game's webhook endpoints (at least once; ids deduplicate). */
  'identity.events.ingest': { request: { events: OutboxEventInput[] }; response: { accepted: number } };
  'identity.webhooks.list': { request: { gameId: string }; response: { items: WebhookEndpointView[] } };
  'identity.webhooks.create': { request: { gameId: string } & WebhookEndpointInput; response: CreatedWebhookEndpointView };
  'identity.webhooks.update': { request: { gameId: string; endpointId: string } & Partial<WebhookEndpointInput>; response: WebhookEndpointView };
  'identity.webhooks.delete': { request: { gameId: string; endpointId: string }; response: { deleted: true } };
  'identity.webhooks.rotateSecret': { request: { gameId: string; endpointId: string; overlapSeconds?: number }; response: CreatedWebhookEndpointView };
  'identity.webhooks.test': { request: { gameId: string; endpointId: string }; response: WebhookDeliveryView };
  'identity.webhooks.deliveries': { request: PageRequest & { gameId: string; endpointId: string; status?: WebhookDeliveryStatus }; response: Page<WebhookDeliveryView> };
  'identity.webhooks.redeliver': { request: { gameId: string; endpointId: string; deliveryId: string }; response: WebhookDeliveryView };
  'identity.webhooks.redeliverFailed': { request: { gameId: string; endpointId: string; since: string }; response: { scheduled: number } };
  'wallet.ping': { request: Record<string, never>; response: PingResponse };
  'wallet.wallets.createOrGet': { request: { profileId: string }; response: { walletId: string; created: boolean } };
  /** With `include: 'profile'` the wallet service adds the wallet's profile (it asks identity). */
  'wallet.wallets.get': { request: { walletId: string; include?: 'profile' }; response: WalletView & { profile?: ProfileView } };
  /** `message` is the decoded message, base64 on the wire. */
  'wallet.wallets.sign': { request: { walletId: string; chain: ChainName; message: string }; response: SignatureView };
  /** `transaction` of sol and sui: base64, as the caller sent it. */
  'wallet.wallets.signTransaction': { request: { walletId: string } & TransactionRequest; response: SignedTransactionView };
  'wallet.wallets.signTypedData': { request: { walletId: string; typedData: TypedDataRequest }; response: SignatureView };
  'wallet.policies.get': { request: { gameId: string }; response: SigningPolicyView };
  /** `ifMatch`: the version the operator read (`If-Match`); another current version is 412 `PRECONDITION_FAILED`. */
  'wallet.policies.put': { request: { gameId: string; policy: SigningPolicyInput; ifMatch?: number }; response: SigningPolicyView };
  'wallet.policies.versions': { request: PageRequest & { gameId: string }; response: Page<SigningPolicyVersionView> };
  'wallet.policies.evaluate': { request: { gameId: string; evaluation: PolicyEvaluationRequest }; response: PolicyEvaluationView };
  'wallet.policies.draft.get': { request: { gameId: string }; response: SigningPolicyDraftView };
  'wallet.policies.draft.put': { request: { gameId: string; draft: SigningRules }; response: SigningPolicyDraftView };
  'wallet.policies.draft.delete': { request: { gameId: string }; response: { deleted: true } };
  'wallet.policies.draft.differences': { request: PageRequest & { gameId: string }; response: Page<PolicyDifferenceView> };
  'wallet.policies.draft.replay': { request: { gameId: string; since?: string }; response: PolicyReplayView };
  /** `ifMatch`: the active version the operator read; the draft becomes the next version. */
  'wallet.policies.draft.activate': { request: { gameId: string; ifMatch?: number }; response: SigningPolicyView };
  'wallet.wallets.addresses': { request: { gameId: string; walletIds: string[] }; response: Record<string, WalletAddresses> };
  /** The wallet service's part of a game's audit trail: signing attempts and signing-policy changes, newest first. */
  'wallet.signatures.list': { request: PageRequest & { gameId: string }; response: Page<AuditEntryView> };
  /** The wallet service's part of a game's audit export: its chain's rows in order, at most `limit` (1–1,000). */
  'wallet.audit.export': { request: AuditExportRequest; response: { lines: AuditExportLineView[] } };
  'core.ping': { request: Record<string, never>; response: PingResponse };
  'core.players.create': {
    request: { uniqueId: string; image: string | null; userData: Record<string, unknown> };
    response: { player: PlayerView; created: boolean };
  };
  'core.players.get': { request: { playerId: string }; response: PlayerView };
  'core.players.list': { request: PageRequest & { gameId: string; uniqueId?: string }; response: Page<PlayerView> };
}

export type RequestOf<P extends Pattern> = PatternContract[P]['request'];
export type ResponseOf<P extends Pattern> = PatternContract[P]['response'];

export function serviceOfPattern(pattern: string): ServiceName | undefined {
  const service = pattern.slice(0, pattern.indexOf('.'));
  return service === 'identity' || service === 'wallet' || service === 'core' ? service : undefined;
}
