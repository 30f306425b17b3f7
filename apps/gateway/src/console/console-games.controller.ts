import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Res, StreamableFile } from '@nestjs/common';
import { Authenticated, Caller, ServiceCaller } from '@game-wallet/auth';
import { ApiKeyView, AppError, SIGNED_REQUESTS, SigningKeyView, AuditEntryView, ConsolePlayerView, CreatedApiKeyView, GameSummaryView, GameView, PAGE_LIMIT, PATTERNS, Page, PolicyDifferenceView, PolicyEvaluationView, PolicyReplayView, SigningPolicyDraftView, SigningPolicyVersionView, SigningPolicyView, encodeCursor, isUuid } from '@game-wallet/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { Readable } from 'node:stream';
import { ServiceCalls } from '../services/service-calls';
import { auditExportLines, auditExportQuery } from './audit-export';
import { nameField, pageQuery, parseBody, parsePageQuery, parseQuery, withoutControlCharacters } from '../validation';
import { etagOf, parseEvaluation, parseIfMatch, parseReplay, parseSigningPolicyInput, parseSigningRules } from './signing-policy-input';

export const createGameBody = z.object({ name: nameField }).strict();
export const createKeyBody = z.object({ name: nameField.optional() }).strict();
export const updateKeyBody = z
  .object({
    active: z.boolean({ error: 'must be true or false' }).optional(),
    signedRequests: z.enum(SIGNED_REQUESTS, { error: 'must be off, signing or all' }).optional().describe('which requests with this key must be signed (RFC 9421)'),
  })
  .strict()
  .refine((body) => body.active !== undefined || body.signedRequests !== undefined, { message: 'give active, signedRequests or both' });
const PUBLIC_KEY_PEM_MAX = 4096;
const PRIVATE_KEY_REFUSED = 'is a private key: register its public key, and make a new pair (this one was shared)';
const jwkMember = z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters');
/** A request-signing public key: a PEM (SPKI) or a JWK (Ed25519 or P-256); identity reads it. */
export const addSigningKeyBody = z
  .object({
    name: nameField.optional(),
    publicKey: z.union(
      [
        z
          .string()
          .min(1, 'must not be empty')
          .max(PUBLIC_KEY_PEM_MAX, `must be at most ${PUBLIC_KEY_PEM_MAX} characters`)
          // Refused here, before it travels any further: a private key must never leave its owner.
          .refine((pem) => !pem.includes('PRIVATE KEY'), PRIVATE_KEY_REFUSED),
        // The members of RFC 7517 a public key may carry (what WebCrypto's exportKey('jwk') adds among them); identity
        // reads kty, crv, x and y, and refuses a key with d.
        z
          .object({
            kty: jwkMember,
            crv: jwkMember,
            x: jwkMember,
            y: jwkMember.optional(),
            d: jwkMember.optional(),
            alg: jwkMember.optional(),
            kid: jwkMember.optional(),
            use: jwkMember.optional(),
            key_ops: z.array(jwkMember).max(8, 'must have at most 8 entries').optional(),
            ext: z.boolean({ error: 'must be true or false' }).optional(),
          })
          .strict()
          .refine((jwk) => jwk.d === undefined, PRIVATE_KEY_REFUSED),
      ],
      { error: 'must be a PEM public key or a JWK object (kty, crv, x, and y for P-256)' },
    ),
  })
  .strict();
/** The players list's filter: an exact `uniqueId` (what `POST /v1/player/create` takes), empty meaning none. */
export const playersQuery = z.object({
  uniqueId: z
    .string({ error: 'must be given once' })
    .max(128, 'must be at most 128 characters')
    .refine(...withoutControlCharacters)
    .transform((value) => (value === '' ? undefined : value))
    .optional()
    .describe('only the player with exactly this uniqueId'),
});
export const deleteKeyQuery = z.object({ revokeTokens: z.enum(['true', 'false'], { error: 'must be true or false' }).optional() });

/**
 * Pages of time-ordered (UUIDv7) items from several sources, each already newest first and cut after the same
 * cursor: the newest `limit` of them all, and a cursor after the last one when any source has more.
 */
export function mergeNewestFirst<T extends { id: string }>(pages: Page<T>[], limit: number): Page<T> {
  const all = pages.flatMap((page) => page.items).sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const items = all.slice(0, limit);
  const more = all.length > limit || pages.some((page) => page.nextCursor !== null);
  return { items, nextCursor: more && items.length > 0 ? encodeCursor(items[items.length - 1].id) : null };
}

/** The console JSON API for games, their API keys, players and audit trail (SPEC §5). */
@Controller('v1/console/games')
@Authenticated({ console: true })
export class ConsoleGamesController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  list(@Query() query: unknown, @Caller() caller: ServiceCaller): Promise<Page<GameSummaryView>> {
    return this.services.call(PATTERNS.identity.listGames, parsePageQuery(query), caller);
  }

  @Post()
  create(@Body() body: unknown, @Caller() caller: ServiceCaller): Promise<GameView> {
    return this.services.call(PATTERNS.identity.createGame, parseBody(createGameBody, body), caller);
  }

  @Get(':gameId')
  get(@Param('gameId') gameId: string, @Caller() caller: ServiceCaller): Promise<GameView> {
    return this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
  }

  @Get(':gameId/api-keys')
  listKeys(@Param('gameId') gameId: string, @Caller() caller: ServiceCaller): Promise<{ items: ApiKeyView[] }> {
    return this.services.call(PATTERNS.identity.listApiKeys, { gameId }, caller);
  }

  @Post(':gameId/api-keys')
  createKey(@Param('gameId') gameId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<CreatedApiKeyView> {
    return this.services.call(PATTERNS.identity.createApiKey, { gameId, ...parseBody(createKeyBody, body) }, caller);
  }

  @Patch(':gameId/api-keys/:keyId')
  updateKey(
    @Param('gameId') gameId: string,
    @Param('keyId') keyId: string,
    @Body() body: unknown,
    @Caller() caller: ServiceCaller,
  ): Promise<ApiKeyView> {
    return this.services.call(PATTERNS.identity.updateApiKey, { gameId, keyId, ...parseBody(updateKeyBody, body) }, caller);
  }

  /** Registers a public key the key's requests may be signed with (RFC 9421); at most three per key. */
  @Post(':gameId/api-keys/:keyId/signing-keys')
  addSigningKey(
    @Param('gameId') gameId: string,
    @Param('keyId') keyId: string,
    @Body() body: unknown,
    @Caller() caller: ServiceCaller,
  ): Promise<SigningKeyView> {
    return this.services.call(PATTERNS.identity.addSigningKey, { gameId, keyId, ...parseBody(addSigningKeyBody, body) }, caller);
  }

  @Delete(':gameId/api-keys/:keyId/signing-keys/:signingKeyId')
  @HttpCode(204)
  async removeSigningKey(
    @Param('gameId') gameId: string,
    @Param('keyId') keyId: string,
    @Param('signingKeyId') signingKeyId: string,
    @Caller() caller: ServiceCaller,
  ): Promise<void> {
    await this.services.call(PATTERNS.identity.removeSigningKey, { gameId, keyId, signingKeyId }, caller);
  }

  /** `?revokeTokens=true` also revokes every profile token the key issued (SPEC §11). */
  @Delete(':gameId/api-keys/:keyId')
  @HttpCode(204)
  async deleteKey(
    @Param('gameId') gameId: string,
    @Param('keyId') keyId: string,
    @Query() query: unknown,
    @Caller() caller: ServiceCaller,
  ): Promise<void> {
    const revokeTokens = parseQuery(deleteKeyQuery, query).revokeTokens === 'true';
    await this.services.call(PATTERNS.identity.deleteApiKey, { gameId, keyId, revokeTokens }, caller);
  }

  /** The game's audit trail, newest first: identity's events and the wallet service's signatures, merged by time. */
  @Get(':gameId/audit')
  async audit(@Param('gameId') gameId: string, @Query() query: unknown, @Caller() caller: ServiceCaller): Promise<Page<AuditEntryView>> {
    const page = parsePageQuery(query);
    requireGameIdShape(gameId);
    const [identity, wallet] = await inOrderOfPrecedence(
      this.services.call(PATTERNS.identity.listAudit, { gameId, ...page }, caller),
      this.services.call(PATTERNS.wallet.listSignatures, { gameId, ...page }, caller),
    );
    return mergeNewestFirst([identity, wallet], page.limit);
  }

  /**
   * The game's audit trail as NDJSON, each row with its place in its service's hash chain (identity's and the wallet
   * service's), each chain in its order; `npm run audit:verify -- FILE` checks a file of it.
   */
  @Get(':gameId/audit/export')
  async exportAudit(@Param('gameId') gameId: string, @Query() query: unknown, @Caller() caller: ServiceCaller): Promise<StreamableFile> {
    const { since, until } = parseQuery(auditExportQuery, query);
    requireGameIdShape(gameId);
    const window = { gameId, ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) };
    const lines = await auditExportLines(
      [(request) => this.services.call(PATTERNS.identity.exportAudit, request, caller), (request) => this.services.call(PATTERNS.wallet.exportAudit, request, caller)],
      window,
    );
    return new StreamableFile(Readable.from(lines), { type: 'application/x-ndjson; charset=utf-8', disposition: `attachment; filename="audit-${gameId}.ndjson"` });
  }

  /** The game's signing policy (SPEC §11) as ordered rules, with its version as `ETag`; a game that never set one has the default (version 0). */
  @Get(':gameId/signing-policy')
  async signingPolicy(@Param('gameId') gameId: string, @Caller() caller: ServiceCaller, @Res({ passthrough: true }) reply: FastifyReply): Promise<SigningPolicyView> {
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return withEtag(reply, await this.services.call(PATTERNS.wallet.getSigningPolicy, { gameId: game.id }, caller));
  }

  /**
   * Saves the next version of the game's signing policy: rules, or the first shape (deprecated, converted to rules).
   * With `If-Match`, only over the version it names (else 412). Every wallet service replica applies it within a second.
   */
  @Put(':gameId/signing-policy')
  async putSigningPolicy(
    @Param('gameId') gameId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatchHeader: string | undefined,
    @Caller() caller: ServiceCaller,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SigningPolicyView> {
    const policy = parseSigningPolicyInput(body);
    const ifMatch = parseIfMatch(ifMatchHeader);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return withEtag(reply, await this.services.call(PATTERNS.wallet.putSigningPolicy, { gameId: game.id, policy, ...(ifMatch === undefined ? {} : { ifMatch }) }, caller));
  }

  /** Every version the game's policy had, newest first. */
  @Get(':gameId/signing-policy/versions')
  async signingPolicyVersions(@Param('gameId') gameId: string, @Query() query: unknown, @Caller() caller: ServiceCaller): Promise<Page<SigningPolicyVersionView>> {
    // Its cursor names a version, not an id: the wallet service reads it (400 INVALID_QUERY when it is not one of its cursors).
    const { cursor, limit } = parseQuery(pageQuery, query);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return this.services.call(PATTERNS.wallet.listSigningPolicyVersions, { gameId: game.id, cursor: cursor || undefined, limit: limit ?? PAGE_LIMIT.default }, caller);
  }

  /** A dry run: what the active policy (or the draft) decides for a signing request, and what it read of it. */
  @Post(':gameId/signing-policy/evaluate')
  @HttpCode(200)
  async evaluateSigningPolicy(@Param('gameId') gameId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<PolicyEvaluationView> {
    const evaluation = parseEvaluation(body);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return this.services.call(PATTERNS.wallet.evaluateSigningPolicy, { gameId: game.id, evaluation }, caller);
  }

  @Get(':gameId/signing-policy/draft')
  async signingPolicyDraft(@Param('gameId') gameId: string, @Caller() caller: ServiceCaller): Promise<SigningPolicyDraftView> {
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return this.services.call(PATTERNS.wallet.getSigningPolicyDraft, { gameId: game.id }, caller);
  }

  /** Replaces the game's draft: evaluated beside the active policy on every signing attempt, deciding nothing. */
  @Put(':gameId/signing-policy/draft')
  async putSigningPolicyDraft(@Param('gameId') gameId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<SigningPolicyDraftView> {
    const draft = parseSigningRules(body);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return this.services.call(PATTERNS.wallet.putSigningPolicyDraft, { gameId: game.id, draft }, caller);
  }

  @Delete(':gameId/signing-policy/draft')
  @HttpCode(204)
  async deleteSigningPolicyDraft(@Param('gameId') gameId: string, @Caller() caller: ServiceCaller): Promise<void> {
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    await this.services.call(PATTERNS.wallet.deleteSigningPolicyDraft, { gameId: game.id }, caller);
  }

  /** Signing attempts where the draft decided otherwise than the active policy, newest first. */
  @Get(':gameId/signing-policy/draft/differences')
  async signingPolicyDifferences(@Param('gameId') gameId: string, @Query() query: unknown, @Caller() caller: ServiceCaller): Promise<Page<PolicyDifferenceView>> {
    const page = parsePageQuery(query);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return this.services.call(PATTERNS.wallet.listSigningPolicyDifferences, { gameId: game.id, ...page }, caller);
  }

  /** The draft over past signing attempts: how many decisions it would change, each way. */
  @Post(':gameId/signing-policy/draft/replay')
  @HttpCode(200)
  async replaySigningPolicyDraft(@Param('gameId') gameId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<PolicyReplayView> {
    const { since } = parseReplay(body);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return this.services.call(PATTERNS.wallet.replaySigningPolicyDraft, { gameId: game.id, ...(since === undefined ? {} : { since }) }, caller);
  }

  /** Makes the draft the next version of the policy (with `If-Match`, only over the version it names, else 412). */
  @Post(':gameId/signing-policy/draft/activate')
  @HttpCode(200)
  async activateSigningPolicyDraft(
    @Param('gameId') gameId: string,
    @Headers('if-match') ifMatchHeader: string | undefined,
    @Caller() caller: ServiceCaller,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SigningPolicyView> {
    const ifMatch = parseIfMatch(ifMatchHeader);
    const game = await this.services.call(PATTERNS.identity.getGame, { gameId }, caller);
    return withEtag(reply, await this.services.call(PATTERNS.wallet.activateSigningPolicyDraft, { gameId: game.id, ...(ifMatch === undefined ? {} : { ifMatch }) }, caller));
  }

  /** The game's players (exact `uniqueId` filter, paged), each with its wallet's addresses. */
  @Get(':gameId/players')
  async players(
    @Param('gameId') gameId: string,
    @Query() query: Record<string, unknown>,
    @Caller() caller: ServiceCaller,
  ): Promise<Page<ConsolePlayerView>> {
    const page = parsePageQuery(query);
    const { uniqueId } = parseQuery(playersQuery, query);
    requireGameIdShape(gameId);
    const [, players] = await inOrderOfPrecedence(
      this.services.call(PATTERNS.identity.getGame, { gameId }, caller),
      this.services.call(PATTERNS.core.listPlayers, { gameId, uniqueId, ...page }, caller),
    );
    const addresses =
      players.items.length === 0
        ? {}
        : await this.services.call(PATTERNS.wallet.addresses, { gameId, walletIds: players.items.map((player) => player.walletId) }, caller);
    return { items: players.items.map((player) => ({ ...player, addresses: addresses[player.walletId] ?? null })), nextCursor: players.nextCursor };
  }
}

/** The policy, with its version as a strong `ETag` (what `If-Match` names). */
function withEtag(reply: FastifyReply, policy: SigningPolicyView): SigningPolicyView {
  void reply.header('etag', etagOf(policy.version));
  return policy;
}

/** A game id that cannot exist answers 404 here, as identity would, before any service is asked. */
function requireGameIdShape(gameId: string): void {
  if (!isUuid(gameId)) {
    throw new AppError('GAME_NOT_FOUND', 'No game with this id');
  }
}

/**
 * Independent calls run together; their answers come back as awaited one after another, so when several fail the
 * first one's error is the answer (the game's 404 before a listing's), as if they had run in turn.
 */
async function inOrderOfPrecedence<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  second.catch(() => undefined); // settled below; an earlier failure must not leave it unhandled
  return [await first, await second];
}
