import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { Authenticated, CONSOLE_COOKIE, Caller, ServiceCaller } from '@game-wallet/auth';
import { Public } from '@game-wallet/http';
import { ConsoleSessionInfo, ConsoleSessionView, PATTERNS, SecondFactorChallengeView, consolePasswordDigest, normalizeEmail } from '@game-wallet/contracts';
import { sealTo } from '@game-wallet/crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import { ServiceCalls } from '../services/service-calls';
import { parseBody, withoutControlCharacters } from '../validation';
import { userAgentOf, webAuthnOrigin } from './webauthn-origin';

export const signInBody = z
  .object({
    email: z.string().min(1).max(320).refine(...withoutControlCharacters),
    password: z.string().min(1).max(1024),
  })
  .strict();
/**
 * Sign-in is slow on purpose (scrypt in 32 MiB, one hash at a time per identity replica): a burst of sign-ins queues
 * there, so it gets a longer deadline than other calls.
 */
const SIGN_IN_DEADLINE_MS = 15_000;

/** Console sign-in (a session cookie and a bearer console token), who is signed in, and sign-out. */
@Controller('v1/console/session')
export class ConsoleSessionController {
  constructor(
    private readonly services: ServiceCalls,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @Public()
  async signIn(
    @Body() body: unknown,
    @Caller('system') caller: ServiceCaller,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView | SecondFactorChallengeView> {
    const { email, password } = parseBody(signInBody, body);
    const normalized = normalizeEmail(email);
    // Sealed to identity's key: what crosses Redis is no cheaper to attack than identity's stored hash.
    const { publicKey } = await this.services.call(PATTERNS.identity.passwordKey, {}, caller);
    const sealedPassword = sealTo(publicKey, Buffer.from(consolePasswordDigest(email, password)), Buffer.from(normalized));
    const session = await this.services.call(
      PATTERNS.identity.signIn,
      { email: normalized, sealedPassword, ip: request.ip, userAgent: userAgentOf(request), webauthn: webAuthnOrigin(this.config, request) },
      caller,
      SIGN_IN_DEADLINE_MS,
    );
    if ('token' in session) {
      setSessionCookie(request, reply, session);
    }
    return session;
  }

  @Get()
  @Authenticated({ console: true })
  current(@Caller() caller: ServiceCaller): Promise<ConsoleSessionInfo> {
    return this.services.call(PATTERNS.identity.getSession, {}, caller);
  }

  @Delete()
  @HttpCode(204)
  @Authenticated({ console: true })
  async signOut(@Caller() caller: ServiceCaller, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.services.call(PATTERNS.identity.signOut, {}, caller);
    void reply.clearCookie(CONSOLE_COOKIE, { path: '/' });
  }
}

/** The console session cookie (SPEC §5): HttpOnly, SameSite=Strict, Secure on https, until the session ends. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: ConsoleSessionView): void {
  void reply.setCookie(CONSOLE_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    expires: new Date(session.expiresAt),
  });
}
