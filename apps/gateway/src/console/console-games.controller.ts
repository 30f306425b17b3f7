import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { Authenticated, CurrentPrincipal } from '@game-wallet/auth';
import { ApiKeyView, AuditEntryView, CreatedApiKeyView, GameView, PATTERNS, Page, Principal } from '@game-wallet/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ServiceCalls } from '../services/service-calls';
import { nameField, parseBody, parsePageQuery } from '../validation';

const createGameBody = z.object({ name: nameField }).strict();
const createKeyBody = z.object({ name: nameField.optional() }).strict();
const updateKeyBody = z.object({ active: z.boolean({ error: 'must be true or false' }) }).strict();

/** The console JSON API for games, their API keys and their audit trail (SPEC §5). */
@Controller('v1/console/games')
@Authenticated({ console: true })
export class ConsoleGamesController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  list(@Query() query: unknown, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<Page<GameView>> {
    return this.services.call(PATTERNS.identity.listGames, parsePageQuery(query), principal, request);
  }

  @Post()
  create(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<GameView> {
    return this.services.call(PATTERNS.identity.createGame, parseBody(createGameBody, body), principal, request);
  }

  @Get(':gameId')
  get(@Param('gameId') gameId: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<GameView> {
    return this.services.call(PATTERNS.identity.getGame, { gameId }, principal, request);
  }

  @Get(':gameId/api-keys')
  listKeys(@Param('gameId') gameId: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<{ items: ApiKeyView[] }> {
    return this.services.call(PATTERNS.identity.listApiKeys, { gameId }, principal, request);
  }

  @Post(':gameId/api-keys')
  createKey(@Param('gameId') gameId: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<CreatedApiKeyView> {
    return this.services.call(PATTERNS.identity.createApiKey, { gameId, ...parseBody(createKeyBody, body) }, principal, request);
  }

  @Patch(':gameId/api-keys/:keyId')
  updateKey(
    @Param('gameId') gameId: string,
    @Param('keyId') keyId: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<ApiKeyView> {
    return this.services.call(PATTERNS.identity.updateApiKey, { gameId, keyId, ...parseBody(updateKeyBody, body) }, principal, request);
  }

  @Delete(':gameId/api-keys/:keyId')
  @HttpCode(204)
  async deleteKey(@Param('gameId') gameId: string, @Param('keyId') keyId: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    await this.services.call(PATTERNS.identity.deleteApiKey, { gameId, keyId }, principal, request);
  }

  @Get(':gameId/audit')
  audit(@Param('gameId') gameId: string, @Query() query: unknown, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<Page<AuditEntryView>> {
    return this.services.call(PATTERNS.identity.listAudit, { gameId, ...parsePageQuery(query) }, principal, request);
  }
}
