// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only: nothing of contracts reaches the emitted JavaScript
import type { ApiKeyView, CreatedApiKeyView, SignedRequests, SigningKeyView } from '@game-wallet/contracts';
import { HttpClient, RequestOptions } from './http-client';

const segment = encodeURIComponent;

/** A change of an API key: on or off, and which of its requests must be signed (RFC 9421). */
export interface ApiKeyChange {
  active?: boolean;
  /** `off`; `signing` (sign, sign-transaction, sign-typed-data, authenticate); `all`. Needs a step-up. */
  signedRequests?: SignedRequests;
}

/** A request-signing public key to register: a PEM (`-----BEGIN PUBLIC KEY-----`) or a JWK (Ed25519 or P-256). */
export interface SigningKeyInput {
  name?: string;
  publicKey: string | Record<string, unknown>;
}

/** A game's API keys and the public keys their requests may be signed with. */
export interface ConsoleApiKeysApi {
  /** Every key of the game, with its signing setting and signing keys (never a secret). */
  list(gameId: string, options?: RequestOptions): Promise<{ items: ApiKeyView[] }>;
  /** The answer's `key` (`gk_…`) is shown this once. Needs a step-up. */
  create(gameId: string, input?: { name?: string }, options?: RequestOptions): Promise<CreatedApiKeyView>;
  update(gameId: string, keyId: string, change: ApiKeyChange, options?: RequestOptions): Promise<ApiKeyView>;
  /** Final; with `revokeTokens`, every profile JWT the key issued is revoked too. Needs a step-up. */
  delete(gameId: string, keyId: string, deletion?: { revokeTokens?: boolean }, options?: RequestOptions): Promise<void>;
  /** Registers a public key (at most 3 per API key); its `id` is the `keyid` signatures name. Needs a step-up. */
  addSigningKey(gameId: string, keyId: string, input: SigningKeyInput, options?: RequestOptions): Promise<SigningKeyView>;
  /** Removes a signing key (not the last while signed requests are required). Needs a step-up. */
  removeSigningKey(gameId: string, keyId: string, signingKeyId: string, options?: RequestOptions): Promise<void>;
}

export class ConsoleApiKeysResource implements ConsoleApiKeysApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  list(gameId: string, options?: RequestOptions): Promise<{ items: ApiKeyView[] }> {
    return this.http.request({ method: 'GET', url: this.url(gameId) }, options);
  }

  create(gameId: string, input: { name?: string } = {}, options?: RequestOptions): Promise<CreatedApiKeyView> {
    return this.http.request({ method: 'POST', url: this.url(gameId), body: input }, options);
  }

  update(gameId: string, keyId: string, change: ApiKeyChange, options?: RequestOptions): Promise<ApiKeyView> {
    return this.http.request({ method: 'PATCH', url: this.url(gameId, `/${segment(keyId)}`), body: change }, options);
  }

  delete(gameId: string, keyId: string, deletion: { revokeTokens?: boolean } = {}, options?: RequestOptions): Promise<void> {
    const query = deletion.revokeTokens === undefined ? '' : `?revokeTokens=${String(deletion.revokeTokens)}`;
    return this.http.request({ method: 'DELETE', url: `${this.url(gameId, `/${segment(keyId)}`)}${query}` }, options);
  }

  addSigningKey(gameId: string, keyId: string, input: SigningKeyInput, options?: RequestOptions): Promise<SigningKeyView> {
    return this.http.request({ method: 'POST', url: this.url(gameId, `/${segment(keyId)}/signing-keys`), body: input }, options);
  }

  removeSigningKey(gameId: string, keyId: string, signingKeyId: string, options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', url: this.url(gameId, `/${segment(keyId)}/signing-keys/${segment(signingKeyId)}`) }, options);
  }

  private url(gameId: string, path = ''): string {
    return `${this.baseUrl}/v1/console/games/${segment(gameId)}/api-keys${path}`;
  }
}
