import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { Authenticated, Caller, GatewayAuth, ServiceCaller } from '@game-wallet/auth';
import { Public } from '@game-wallet/http';
import {
  CONSOLE_ROLES,
  ConsoleSessionEntryView,
  ConsoleSessionView,
  ConsoleSettingsView,
  CreatedInvitationView,
  InvitationPreview,
  InvitationView,
  OperatorView,
  PATTERNS,
  consolePasswordDigest,
} from '@game-wallet/contracts';
import { sealTo } from '@game-wallet/crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import { ServiceCalls } from '../services/service-calls';
import { parseBody, withoutControlCharacters } from '../validation';
import { publicEndpoints } from './console-endpoints.controller';
import { setSessionCookie } from './console-session.controller';
import { userAgentOf } from './webauthn-origin';

const grantsField = z
  .array(
    z
      .object({
        role: z.enum(CONSOLE_ROLES, { error: `must be one of ${CONSOLE_ROLES.join(', ')}` }),
        gameId: z.uuid({ error: 'must be a game id, or null for every game' }).nullable(),
      })
      .strict(),
  )
  .max(100, 'at most 100 grants');
/** An invitation token: 32 random bytes, base64url (what the link carries after `#token=`). */
const tokenField = z.string().min(1).max(64);

export const updateOperatorBody = z
  .object({ grants: grantsField.optional(), status: z.enum(['active', 'suspended'], { error: 'must be active or suspended' }).optional() })
  .strict()
  .refine((body) => body.grants !== undefined || body.status !== undefined, 'give grants, status or both');
export const createInvitationBody = z
  .object({ email: z.email('must be an e-mail address').max(320), grants: grantsField.min(1, 'at least one grant') })
  .strict();
export const previewInvitationBody = z.object({ token: tokenField }).strict();
export const acceptInvitationBody = z
  .object({
    token: tokenField,
    password: z.string().min(12, 'must be at least 12 characters').max(1024),
    displayName: z.string().trim().min(1).max(100).refine(...withoutControlCharacters),
  })
  .strict();
export const updateSettingsBody = z.object({ requireTwoFactor: z.boolean({ error: 'must be true or false' }) }).strict();

/** Accepting sets a password (scrypt in identity, one hash at a time): the sign-in's longer deadline. */
const SLOW_DEADLINE_MS = 15_000;

/**
 * The console's team (owners): operators, their roles and sessions, invitations, the instance's settings; and the two
 * public routes of an invitation link. Those count an unknown token against the client's address as a failed
 * authentication, so guessing links meets the same 429 as guessing credentials.
 */
@Controller('v1/console')
export class ConsoleTeamController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly auth: GatewayAuth,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('operators')
  @Authenticated({ console: true })
  listOperators(@Caller() caller: ServiceCaller): Promise<{ items: OperatorView[] }> {
    return this.services.call(PATTERNS.identity.listOperators, {}, caller);
  }

  @Patch('operators/:operatorId')
  @Authenticated({ console: true })
  updateOperator(@Param('operatorId') operatorId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<OperatorView> {
    return this.services.call(PATTERNS.identity.updateOperator, { operatorId, ...parseBody(updateOperatorBody, body) }, caller);
  }

  @Delete('operators/:operatorId')
  @HttpCode(204)
  @Authenticated({ console: true })
  async removeOperator(@Param('operatorId') operatorId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.removeOperator, { operatorId }, caller);
  }

  @Get('operators/:operatorId/sessions')
  @Authenticated({ console: true })
  listSessions(@Param('operatorId') operatorId: string, @Caller() caller: ServiceCaller): Promise<{ items: ConsoleSessionEntryView[] }> {
    return this.services.call(PATTERNS.identity.listOperatorSessions, { operatorId }, caller);
  }

  @Delete('operators/:operatorId/sessions')
  @HttpCode(204)
  @Authenticated({ console: true })
  async endSessions(@Param('operatorId') operatorId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.endOperatorSessions, { operatorId }, caller);
  }

  @Delete('operators/:operatorId/sessions/:sessionId')
  @HttpCode(204)
  @Authenticated({ console: true })
  async endSession(@Param('operatorId') operatorId: string, @Param('sessionId') sessionId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.endOperatorSessions, { operatorId, sessionId }, caller);
  }

  @Get('invitations')
  @Authenticated({ console: true })
  listInvitations(@Caller() caller: ServiceCaller): Promise<{ items: InvitationView[] }> {
    return this.services.call(PATTERNS.identity.listInvitations, {}, caller);
  }

  /** The link's base is the platform's public address (`PUBLIC_BASE_URL`, else the address the console was opened at). */
  @Post('invitations')
  @Authenticated({ console: true })
  createInvitation(@Body() body: unknown, @Caller() caller: ServiceCaller, @Req() request: FastifyRequest): Promise<CreatedInvitationView> {
    const consoleUrl = publicEndpoints(this.config, request).baseUrl;
    return this.services.call(PATTERNS.identity.createInvitation, { ...parseBody(createInvitationBody, body), consoleUrl }, caller, SLOW_DEADLINE_MS);
  }

  @Delete('invitations/:invitationId')
  @HttpCode(204)
  @Authenticated({ console: true })
  async revokeInvitation(@Param('invitationId') invitationId: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.revokeInvitation, { invitationId }, caller);
  }

  @Post('invitations/preview')
  @HttpCode(200)
  @Public()
  async previewInvitation(@Body() body: unknown, @Caller('system') caller: ServiceCaller, @Req() request: FastifyRequest): Promise<InvitationPreview> {
    this.auth.refuseBlockedClient(() => request.ip);
    const { token } = parseBody(previewInvitationBody, body);
    return this.services.call(PATTERNS.identity.previewInvitation, { tokenHash: invitationTokenHash(token) }, caller).catch((error: unknown) => this.auth.failedGuess(request.ip, error));
  }

  /** Sets the password (sealed to identity as at sign-in, the invitation's e-mail as associated data) and signs in. */
  @Post('invitations/accept')
  @HttpCode(200)
  @Public()
  async acceptInvitation(
    @Body() body: unknown,
    @Caller('system') caller: ServiceCaller,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    this.auth.refuseBlockedClient(() => request.ip);
    const { token, password, displayName } = parseBody(acceptInvitationBody, body);
    const guessed = (error: unknown): Promise<never> => this.auth.failedGuess(request.ip, error);
    const tokenHash = invitationTokenHash(token);
    const { email } = await this.services.call(PATTERNS.identity.previewInvitation, { tokenHash }, caller).catch(guessed);
    const { publicKey } = await this.services.call(PATTERNS.identity.passwordKey, {}, caller);
    const sealedPassword = sealTo(publicKey, Buffer.from(consolePasswordDigest(email, password)), Buffer.from(email));
    const session = await this.services
      .call(PATTERNS.identity.acceptInvitation, { tokenHash, sealedPassword, displayName, ip: request.ip, userAgent: userAgentOf(request) }, caller, SLOW_DEADLINE_MS)
      .catch(guessed);
    setSessionCookie(request, reply, session);
    return session;
  }

  @Get('settings')
  @Authenticated({ console: true })
  getSettings(@Caller() caller: ServiceCaller): Promise<ConsoleSettingsView> {
    return this.services.call(PATTERNS.identity.getSettings, {}, caller);
  }

  @Put('settings')
  @Authenticated({ console: true })
  updateSettings(@Body() body: unknown, @Caller() caller: ServiceCaller): Promise<ConsoleSettingsView> {
    return this.services.call(PATTERNS.identity.updateSettings, parseBody(updateSettingsBody, body), caller);
  }
}

/** What crosses Redis of an invitation link's token: its SHA-256 (hex), all identity stores or needs of it. */
export function invitationTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
