import type { IssuedToken, Jwks, Page, PlayerView, PolicyDifferenceView, PolicyEvaluationRequest, PolicyEvaluationView, PolicyReplayView, SignatureView, SignedTransactionView, SigningPolicyDraftView, SigningPolicyInput, SigningPolicyVersionView, SigningPolicyView, SigningRules, TransactionRequest, TypedDataRequest, WalletView } from './contract-types';
import { base64Encode } from './crypto/base64';
import { HttpClient, RequestOptions } from './http-client';
import type { AuthenticateInput, CreatePlayerInput, CreatePlayerResult, HealthOptions, HealthReport, IfMatchOptions, PageQuery, PlayersApi, ProfilesApi, ReplayInput, SignInput, SigningPolicyApi, SigningPolicyDraftApi, WalletQuery, WalletWithProfile, WalletsApi } from './types';

const segment = encodeURIComponent;

// The routes; the documentation is on the interfaces in ./types. Every call may be retried (see HttpClient): the
// writes carry an Idempotency-Key, so a retry of one the platform already did gets its answer and does nothing again.
export class PlayersResource implements PlayersApi {
  constructor(
    private readonly http: HttpClient,
    private readonly coreUrl: string,
  ) {}

  // A retry with the call's Idempotency-Key replays the first answer, so `created` stays true for the call that made
  // the player; a new call with the same uniqueId answers 200 with it.
  async create(input: CreatePlayerInput, options?: RequestOptions): Promise<CreatePlayerResult> {
    const { status, body } = await this.http.send<PlayerView>(
      { method: 'POST', url: `${this.coreUrl}/v1/player/create`, body: { uniqueId: input.uniqueId, image: input.image, userData: input.userData } },
      options,
    );
    return { player: body, created: status === 201 };
  }

  get(playerId: string, options?: RequestOptions): Promise<PlayerView> {
    return this.http.request({ method: 'GET', url: `${this.coreUrl}/v1/player/${segment(playerId)}` }, options);
  }
}

export class ProfilesResource implements ProfilesApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  authenticate(profileId: string, input: AuthenticateInput = {}, options?: RequestOptions): Promise<IssuedToken> {
    return this.http.request(
      { method: 'POST', url: `${this.baseUrl}/v1/profile/${segment(profileId)}/authenticate`, body: { duration: input.duration } },
      options,
    );
  }

  // Idempotent: a repeat refuses the same tokens again.
  async revoke(profileId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'POST', url: `${this.baseUrl}/v1/profile/${segment(profileId)}/revoke` }, options);
  }
}

export class WalletsResource implements WalletsApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  get(walletId: string, query: WalletQuery & { include: 'profile' }, options?: RequestOptions): Promise<WalletWithProfile>;
  get(walletId: string, query?: WalletQuery, options?: RequestOptions): Promise<WalletView>;
  get(walletId: string, query: WalletQuery = {}, options?: RequestOptions): Promise<WalletView> {
    const params = new URLSearchParams();
    if (query.include !== undefined) {
      params.set('include', query.include);
    }
    if (query.chain !== undefined) {
      params.set('chain', query.chain);
    }
    const search = params.toString();
    return this.http.request({ method: 'GET', url: `${this.baseUrl}/v1/wallet/${segment(walletId)}${search === '' ? '' : `?${search}`}` }, options);
  }

  sign(walletId: string, input: SignInput, options?: RequestOptions): Promise<SignatureView> {
    const body =
      typeof input.message === 'string'
        ? { chain: input.chain, message: input.message, encoding: input.encoding }
        : { chain: input.chain, message: base64Encode(input.message), encoding: 'base64' };
    return this.http.request({ method: 'POST', url: `${this.baseUrl}/v1/wallet/${segment(walletId)}/sign`, body }, options);
  }
  signTransaction(walletId: string, input: TransactionRequest, options?: RequestOptions): Promise<SignedTransactionView> {
    return this.http.request({ method: 'POST', url: `${this.baseUrl}/v1/wallet/${segment(walletId)}/sign-transaction`, body: input }, options);
  }

  signTypedData(walletId: string, typedData: TypedDataRequest, options?: RequestOptions): Promise<SignatureView> {
    return this.http.request({ method: 'POST', url: `${this.baseUrl}/v1/wallet/${segment(walletId)}/sign-typed-data`, body: typedData }, options);
  }
}

// A game's signing policy (console token).
export class SigningPolicyResource implements SigningPolicyApi {
  readonly draft: SigningPolicyDraftApi;

  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {
    this.draft = new SigningPolicyDraftResource(http, baseUrl);
  }

  get(gameId: string, options?: RequestOptions): Promise<SigningPolicyView> {
    return this.http.request({ method: 'GET', url: policyUrl(this.baseUrl, gameId) }, options);
  }

  async put(gameId: string, policy: SigningPolicyInput, options?: IfMatchOptions): Promise<SigningPolicyView> {
    return this.http.request({ method: 'PUT', url: policyUrl(this.baseUrl, gameId), body: policy, headers: ifMatchHeader(options) }, options);
  }

  versions(gameId: string, page?: PageQuery, options?: RequestOptions): Promise<Page<SigningPolicyVersionView>> {
    return this.http.request({ method: 'GET', url: policyUrl(this.baseUrl, gameId, '/versions', page) }, options);
  }

  evaluate(gameId: string, request: PolicyEvaluationRequest, options?: RequestOptions): Promise<PolicyEvaluationView> {
    return this.http.request({ method: 'POST', url: policyUrl(this.baseUrl, gameId, '/evaluate'), body: request }, options);
  }
}

class SigningPolicyDraftResource implements SigningPolicyDraftApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  get(gameId: string, options?: RequestOptions): Promise<SigningPolicyDraftView> {
    return this.http.request({ method: 'GET', url: policyUrl(this.baseUrl, gameId, '/draft') }, options);
  }

  put(gameId: string, draft: SigningRules, options?: RequestOptions): Promise<SigningPolicyDraftView> {
    return this.http.request({ method: 'PUT', url: policyUrl(this.baseUrl, gameId, '/draft'), body: { rules: draft.rules } }, options);
  }

  async delete(gameId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', url: policyUrl(this.baseUrl, gameId, '/draft') }, options);
  }

  differences(gameId: string, page?: PageQuery, options?: RequestOptions): Promise<Page<PolicyDifferenceView>> {
    return this.http.request({ method: 'GET', url: policyUrl(this.baseUrl, gameId, '/draft/differences', page) }, options);
  }

  replay(gameId: string, input: ReplayInput = {}, options?: RequestOptions): Promise<PolicyReplayView> {
    const since = input.since instanceof Date ? input.since.toISOString() : input.since;
    return this.http.request({ method: 'POST', url: policyUrl(this.baseUrl, gameId, '/draft/replay'), body: { since } }, options);
  }

  async activate(gameId: string, options?: IfMatchOptions): Promise<SigningPolicyView> {
    return this.http.request({ method: 'POST', url: policyUrl(this.baseUrl, gameId, '/draft/activate'), headers: ifMatchHeader(options) }, options);
  }
}

/** `{base_url}/v1/console/games/{gameId}/signing-policy…`, with a page's `limit` and `cursor`. */
function policyUrl(baseUrl: string, gameId: string, path = '', page: PageQuery = {}): string {
  const params = new URLSearchParams();
  if (page.limit !== undefined) {
    params.set('limit', String(page.limit));
  }
  if (page.cursor !== undefined) {
    params.set('cursor', page.cursor);
  }
  const search = params.toString();
  return `${baseUrl}/v1/console/games/${segment(gameId)}/signing-policy${path}${search === '' ? '' : `?${search}`}`;
}

/** A version as the strong ETag the platform answers with: `If-Match: "3"`. */
function ifMatchHeader(options: IfMatchOptions | undefined): Record<string, string> | undefined {
  const version = options?.ifMatch;
  if (version === undefined) {
    return undefined;
  }
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new TypeError('ifMatch must be a version: a whole number, 0 or more');
  }
  return { 'if-match': `"${version}"` };
}

/** The routes that take no credential. */
export class PublicApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  /** `GET {base_url}/v1/health` (or `/v1/health/services`): the report, also when a check is down (HTTP 503). */
  health(options: HealthOptions = {}): Promise<HealthReport> {
    const path = options.scope === 'services' ? '/v1/health/services' : '/v1/health';
    // A 503 carrying a report is the answer, not a failure to retry: it says which dependency is down.
    return this.http.request({ method: 'GET', url: `${this.baseUrl}${path}`, accepts: isHealthReport }, options);
  }

  /** `GET {base_url}/v1/.well-known/jwks.json`: the current and previous public keys of profile JWTs. */
  jwks(options?: RequestOptions): Promise<Jwks> {
    return this.http.request({ method: 'GET', url: `${this.baseUrl}/v1/.well-known/jwks.json` }, options);
  }
}

function isHealthReport(status: number, body: unknown): boolean {
  return status === 503 && typeof body === 'object' && body !== null && 'status' in body && 'details' in body;
}
