import type { ChainName, IssuedToken, Page, PlayerView, PolicyDifferenceView, PolicyEvaluationRequest, PolicyEvaluationView, PolicyReplayView, ProfileView, SignatureView, SignedTransactionView, SigningPolicyDraftView, SigningPolicyInput, SigningPolicyVersionView, SigningPolicyView, SigningRules, TransactionRequest, TypedDataRequest, WalletView } from './contract-types';
import type { RequestOptions } from './http-client';

/** SPEC §4.4: `uniqueId` 1–128 characters; `image` an absolute http(s) URL or null; `userData` a JSON object ≤ 16 KiB. */
export interface CreatePlayerInput {
  uniqueId: string;
  image?: string | null;
  userData?: Record<string, unknown>;
}

/** The player, and whether this call created it (201) or found it by its `uniqueId` (200). */
export interface CreatePlayerResult {
  player: PlayerView;
  created: boolean;
}

/** SPEC §4.1: the token lifetime in whole seconds, 60 to 2592000 (30 days); absent or null → 3600. */
export interface AuthenticateInput {
  duration?: number | null;
}

/** SPEC §4.2: `include: 'profile'` adds the wallet's profile; `chain` keeps only that chain's address. */
export interface WalletQuery {
  include?: 'profile';
  chain?: ChainName;
}

export type WalletWithProfile = WalletView & { profile: ProfileView };

export type MessageEncoding = 'utf8' | 'hex' | 'base64';

/**
 * SPEC §4.5: what to sign (at most 4 KiB once decoded). A string is sent as it is, in `encoding` (default utf8); bytes
 * are sent base64-encoded.
 */
export type SignInput = { chain: ChainName; message: string; encoding?: MessageEncoding } | { chain: ChainName; message: Uint8Array; encoding?: never };

/** One check of a health report: `up`, or `down` with a `message`. */
export interface HealthIndicator {
  status: 'up' | 'down';
  message?: string;
  [detail: string]: unknown;
}

/** SPEC §4.3: the Terminus report; `status` is `ok` when every check is up (HTTP 200), `error` otherwise (HTTP 503). */
export interface HealthReport {
  status: 'ok' | 'error' | 'shutting_down';
  info?: Record<string, HealthIndicator>;
  error?: Record<string, HealthIndicator>;
  details: Record<string, HealthIndicator>;
}

export interface HealthOptions extends RequestOptions {
  /** `gateway` (default): the gateway's database and Redis; `services`: a transport ping to identity, wallet and core. */
  scope?: 'gateway' | 'services';
}

/** Players, on `core_url` (API key only). */
export interface PlayersApi {
  /**
   * `POST {core_url}/v1/player/create`: the player with its profile and wallet. Idempotent by `uniqueId`: a new call
   * with the same one returns the same player with `created: false` (a retry of this call replays its own answer).
   */
  create(input: CreatePlayerInput, options?: RequestOptions): Promise<CreatePlayerResult>;
  /** `GET {core_url}/v1/player/{id}`: `PLAYER_NOT_FOUND` (404); `FORBIDDEN` (403) for another game's player. */
  get(playerId: string, options?: RequestOptions): Promise<PlayerView>;
}

/** Profile tokens, on `base_url`. */
export interface ProfilesApi {
  /**
   * `POST {base_url}/v1/profile/{id}/authenticate`: a profile JWT; each call issues another token.
   * With a profile JWT as credential, only for its own profile (a refresh, never outliving the token that asks).
   */
  authenticate(profileId: string, input?: AuthenticateInput, options?: RequestOptions): Promise<IssuedToken>;
  /** `POST {base_url}/v1/profile/{id}/revoke` (API key only): every token of the profile issued before now is refused. */
  revoke(profileId: string, options?: RequestOptions): Promise<void>;
}

/** Wallets, on `base_url`. */
export interface WalletsApi {
  /** `GET {base_url}/v1/wallet/{id}`, with its profile when `include: 'profile'`, only one chain's address with `chain`. */
  get(walletId: string, query: WalletQuery & { include: 'profile' }, options?: RequestOptions): Promise<WalletWithProfile>;
  get(walletId: string, query?: WalletQuery, options?: RequestOptions): Promise<WalletView>;
  /** `POST {base_url}/v1/wallet/{id}/sign`: `{chain, address, signature}`, audited. */
  sign(walletId: string, input: SignInput, options?: RequestOptions): Promise<SignatureView>;
  /**
   * `POST {base_url}/v1/wallet/{id}/sign-transaction`: an EVM transaction's fields, or a Solana (wire format) or Sui
   * (TransactionData BCS) transaction in base64, signed as the chain broadcasts it; broadcasting is the caller's.
   */
  signTransaction(walletId: string, input: TransactionRequest, options?: RequestOptions): Promise<SignedTransactionView>;
  /** `POST {base_url}/v1/wallet/{id}/sign-typed-data`: EIP-712 typed data signed as `eth_signTypedData_v4`. */
  signTypedData(walletId: string, typedData: TypedDataRequest, options?: RequestOptions): Promise<SignatureView>;
}

/** A page of a list: at most `limit` items (1–100, default 50), after `cursor` (the `nextCursor` of the page before). */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** Options of a call that changes a versioned signing policy. */
export interface IfMatchOptions extends RequestOptions {
  /**
   * The version the change is made over (the `version` a read answered, sent as `If-Match: "<version>"`): when another
   * one is current, the call fails with 412 `PRECONDITION_FAILED` and changes nothing. Absent: any version.
   */
  ifMatch?: number;
}

/** What `draft.replay` reads: attempts since `since` (a `Date` or an ISO 8601 date-time); absent, the last 100,000. */
export interface ReplayInput {
  since?: Date | string;
}

/**
 * A game's signing policy (SPEC §11), on `base_url` with a console token: ordered rules, each change a new version,
 * dry runs, and a draft evaluated beside it on every signing attempt.
 */
export interface SigningPolicyApi {
  /** `GET …/games/{gameId}/signing-policy`: the active version (0: the default, which the game never changed). */
  get(gameId: string, options?: RequestOptions): Promise<SigningPolicyView>;
  /**
   * `PUT …/games/{gameId}/signing-policy`: saves the next version, `{rules}` (or the first policy shape, deprecated,
   * converted to rules). `ifMatch`: only over that version (else 412 `PRECONDITION_FAILED`).
   */
  put(gameId: string, policy: SigningPolicyInput, options?: IfMatchOptions): Promise<SigningPolicyView>;
  /** `GET …/signing-policy/versions`: every version, newest first, a page at a time. */
  versions(gameId: string, page?: PageQuery, options?: RequestOptions): Promise<Page<SigningPolicyVersionView>>;
  /**
   * `POST …/signing-policy/evaluate`: what the active policy (or, with `policy: 'draft'`, the draft) decides for a
   * signing request, and the facts it read, without signing. `payload` is what the signing route takes: a message in
   * base64, a transaction (EVM's fields, or base64 for sol and sui), or typed data.
   */
  evaluate(gameId: string, request: PolicyEvaluationRequest, options?: RequestOptions): Promise<PolicyEvaluationView>;
  /** The draft: rules evaluated beside the active policy on every signing attempt, deciding nothing. */
  readonly draft: SigningPolicyDraftApi;
}

export interface SigningPolicyDraftApi {
  /** `GET …/signing-policy/draft`: `NOT_FOUND` (404) when the game has none. */
  get(gameId: string, options?: RequestOptions): Promise<SigningPolicyDraftView>;
  /** `PUT …/signing-policy/draft`: replaces the draft. */
  put(gameId: string, draft: SigningRules, options?: RequestOptions): Promise<SigningPolicyDraftView>;
  /** `DELETE …/signing-policy/draft`: `NOT_FOUND` (404) when the game has none. */
  delete(gameId: string, options?: RequestOptions): Promise<void>;
  /** `GET …/signing-policy/draft/differences`: the signing attempts the draft decided otherwise, newest first. */
  differences(gameId: string, page?: PageQuery, options?: RequestOptions): Promise<Page<PolicyDifferenceView>>;
  /** `POST …/signing-policy/draft/replay`: the draft over past attempts, changing nothing. */
  replay(gameId: string, input?: ReplayInput, options?: RequestOptions): Promise<PolicyReplayView>;
  /**
   * `POST …/signing-policy/draft/activate`: the draft becomes the next version and is removed. `ifMatch`: only over
   * that version (else 412 `PRECONDITION_FAILED`).
   */
  activate(gameId: string, options?: IfMatchOptions): Promise<SigningPolicyView>;
}
