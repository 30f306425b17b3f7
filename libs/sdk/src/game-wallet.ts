import type { Jwks } from './contract-types';
import { ConsoleAccountApi, ConsoleAccountResource, ConsoleSessionApi, ConsoleSessionResource } from './console-account';
import { ConsoleTeamApi, ConsoleTeamResource } from './console-team';
import { ConsoleAuditApi, ConsoleAuditResource } from './console-audit';
import { ConsoleWebhooksApi, ConsoleWebhooksResource } from './console-webhooks';
import { ConsoleApiKeysApi, ConsoleApiKeysResource } from './console-api-keys';
import { ClientOptions, HttpClient, RequestOptions } from './http-client';
import { PlayersResource, ProfilesResource, PublicApi, SigningPolicyResource, WalletsResource } from './resources';
import { checkedRequestSigner, signatureHeaders } from './signing/message-signature';
import type { RequestSigner } from './signing/request-signer';
import type { HealthOptions, HealthReport, PlayersApi, ProfilesApi, SigningPolicyApi, WalletsApi } from './types';

export interface GameWalletOptions extends ClientOptions {
  /** `base_url`: profiles, wallets, health, JWKS (e.g. `https://api.example.com`). */
  baseUrl: string;
  /** `core_url`: players (e.g. `https://core.example.com`). */
  coreUrl: string;
  /** The game's API key (`gk_…`), sent as `x-api-key`. Keep it on the game server: it acts for the whole game. */
  apiKey: string;
  /**
   * Signs every request, each attempt anew (RFC 9421: `Signature-Input` and `Signature`, with `Content-Digest` of the
   * body), for an API key that requires signed requests: the platform then refuses what this key sends unsigned, so
   * a stolen API key alone is not enough. See {@link requestSignerFromPem} and {@link requestSignerFromCryptoKey}.
   */
  requestSigner?: RequestSigner;
}

export interface ProfileClientOptions extends ClientOptions {
  /** `base_url`. */
  baseUrl: string;
  /** The profile JWT, or a function giving the current one (called before each call), sent as `Authorization: Bearer`. */
  jwt: string | (() => string | Promise<string>);
}

export interface ConsoleClientOptions extends ClientOptions {
  /** `base_url`. */
  baseUrl: string;
  /**
   * A console token (the `token` of `POST /v1/console/session`), or a function giving the current one (called before
   * each call), sent as `Authorization: Bearer`. It acts for an operator: keep it off game servers and clients.
   */
  token: string | (() => string | Promise<string>);
}

/** The client of a game server: the whole public API for one game, with its API key. */
export class GameWallet {
  readonly players: PlayersApi;
  readonly profiles: ProfilesApi;
  readonly wallets: WalletsApi;
  private readonly publicApi: PublicApi;

  constructor(options: GameWalletOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('apiKey is required');
    }
    const baseUrl = urlOption('baseUrl', options.baseUrl);
    const apiKey = options.apiKey;
    const signer = options.requestSigner === undefined ? undefined : checkedRequestSigner(options.requestSigner);
    const http = new HttpClient(options, () => ({ 'x-api-key': apiKey }), { attemptHeaders: signer && ((request) => signatureHeaders(request, signer)) });
    this.players = new PlayersResource(http, urlOption('coreUrl', options.coreUrl));
    this.profiles = new ProfilesResource(http, baseUrl);
    this.wallets = new WalletsResource(http, baseUrl);
    this.publicApi = new PublicApi(http, baseUrl);
  }

  /**
   * A client acting for one player with its profile JWT (a game client, say): it may refresh its own token, read its
   * own wallet and sign with it — what SPEC §3 allows a profile JWT, and nothing else.
   */
  static forProfile(options: ProfileClientOptions): ProfileClient {
    return new ProfileClient(options);
  }

  /** A client of the console API for an operator's scripts (a game's signing policy), with a console token. */
  static forConsole(options: ConsoleClientOptions): ConsoleClient {
    return new ConsoleClient(options);
  }

  /** `GET /v1/health`: the gateway's readiness report, or `{ scope: 'services' }` for identity, wallet and core. */
  health(options?: HealthOptions): Promise<HealthReport> {
    return this.publicApi.health(options);
  }

  /** The public keys of profile JWTs (RFC 7517). */
  jwks(options?: RequestOptions): Promise<Jwks> {
    return this.publicApi.jwks(options);
  }
}

/** The client of one profile, made by {@link GameWallet.forProfile}. */
export class ProfileClient {
  readonly profiles: Pick<ProfilesApi, 'authenticate'>;
  readonly wallets: WalletsApi;
  private readonly publicApi: PublicApi;

  constructor(options: ProfileClientOptions) {
    const { jwt } = options;
    if (typeof jwt !== 'function' && (typeof jwt !== 'string' || jwt === '')) {
      throw new TypeError('jwt is required');
    }
    const baseUrl = urlOption('baseUrl', options.baseUrl);
    const http = new HttpClient(options, async () => ({ authorization: `Bearer ${typeof jwt === 'function' ? await jwt() : jwt}` }));
    const profiles = new ProfilesResource(http, baseUrl);
    this.profiles = { authenticate: profiles.authenticate.bind(profiles) };
    this.wallets = new WalletsResource(http, baseUrl);
    this.publicApi = new PublicApi(http, baseUrl);
  }

  /** As {@link GameWallet.health}: no credential is needed. */
  health(options?: HealthOptions): Promise<HealthReport> {
    return this.publicApi.health(options);
  }

  /** As {@link GameWallet.jwks}: no credential is needed. */
  jwks(options?: RequestOptions): Promise<Jwks> {
    return this.publicApi.jwks(options);
  }
}

/** The client of the console API, made by {@link GameWallet.forConsole}: what an operator's console token may do. */
export class ConsoleClient {
  /** Games' signing policies: rules and their versions, dry runs, the draft. */
  readonly signingPolicy: SigningPolicyApi;
  /** The console session: step-up (a second factor again, for the actions that need a fresh one). */
  readonly session: ConsoleSessionApi;
  /** The operator's own account: name, password, sessions, second factors. */
  readonly account: ConsoleAccountApi;
  /** The team (owners): operators, their roles and sessions, invitations, the instance's console settings. */
  readonly team: ConsoleTeamApi;
  /** Games' audit trails: pages, and the export with its hash chains. */
  readonly audit: ConsoleAuditApi;
  /** Games' webhook endpoints: add, change, rotate secrets, send a test event, the delivery log and redelivery. */
  readonly webhooks: ConsoleWebhooksApi;
  /** Games' API keys: create, turn on or off, delete; their request-signing keys and whether requests must be signed. */
  readonly apiKeys: ConsoleApiKeysApi;

  constructor(options: ConsoleClientOptions) {
    const { token } = options;
    if (typeof token !== 'function' && (typeof token !== 'string' || token === '')) {
      throw new TypeError('token is required');
    }
    const http = new HttpClient(options, async () => ({ authorization: `Bearer ${typeof token === 'function' ? await token() : token}` }));
    this.signingPolicy = new SigningPolicyResource(http, urlOption('baseUrl', options.baseUrl));
    this.session = new ConsoleSessionResource(http, urlOption('baseUrl', options.baseUrl));
    this.account = new ConsoleAccountResource(http, urlOption('baseUrl', options.baseUrl));
    this.team = new ConsoleTeamResource(http, urlOption('baseUrl', options.baseUrl));
    this.audit = new ConsoleAuditResource(http, urlOption('baseUrl', options.baseUrl));
    this.webhooks = new ConsoleWebhooksResource(http, urlOption('baseUrl', options.baseUrl));
    this.apiKeys = new ConsoleApiKeysResource(http, urlOption('baseUrl', options.baseUrl));
  }
}

/** An absolute http(s) URL without its trailing slashes, so that paths append cleanly (a path prefix is kept). */
export function urlOption(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} must be an absolute URL, e.g. https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${name} must be an http or https URL`);
  }
  return value.replace(/\/+$/, '');
}
