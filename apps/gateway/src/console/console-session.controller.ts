import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { Authenticated, CONSOLE_COOKIE, Caller, ServiceCaller } from '@game-wallet/auth';
import { Public } from '@game-wallet/http';
import { ConsoleSessionInfo, ConsoleSessionView, PATTERNS, SecondFactorChallengeView, SecondFactorInput, StepUpView, normalizeEmail } from '@game-wallet/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import { ServiceCalls } from '../services/service-calls';
import { parseBody, withoutControlCharacters } from '../validation';
import { secondFactorBody, stepUpBody } from './account-input';
import { PasswordSealer } from './password-sealer';
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

/** Console sign-in (a session cookie and a bearer console token) with its second factor, step-up, who is signed in, and sign-out. */
@Controller('v1/console/session')
export class ConsoleSessionController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly passwords: PasswordSealer,
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
    const [sealedPassword] = await this.passwords.seal(caller, email, [password]);
    const session = await this.services.call(
      PATTERNS.identity.signIn,
      { email: normalizeEmail(email), sealedPassword, ip: request.ip, userAgent: userAgentOf(request), webauthn: webAuthnOrigin(this.config, request) },
      caller,
      SIGN_IN_DEADLINE_MS,
    );
    if ('token' in session) {
      setSessionCookie(request, reply, session);
    }
    return session;
  }

  /** Step 2 of a sign-in with a second factor: the challenge of step 1 and one factor. */
  @Post('second-factor')
  @HttpCode(200)
  @Public()
  async completeSignIn(
    @Body() body: unknown,
    @Caller('system') caller: ServiceCaller,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const { challenge, ...factor } = parseBody(secondFactorBody, body);
    const session = await this.services.call(
      PATTERNS.identity.completeSignIn,
      { challenge, factor: factor as SecondFactorInput, ip: request.ip, userAgent: userAgentOf(request), webauthn: webAuthnOrigin(this.config, request) },
      caller,
    );
    setSessionCookie(request, reply, session);
    return session;
  }

  /** A second factor again (or, without one, the password): the step-up actions of the next 5 minutes. */
  @Post('step-up')
  @HttpCode(200)
  @Authenticated({ console: true })
  async stepUp(@Body() body: unknown, @Caller() caller: ServiceCaller, @Req() request: FastifyRequest): Promise<StepUpView> {
    const { password, ...factor } = parseBody(stepUpBody, body);
    const webauthn = webAuthnOrigin(this.config, request);
    if (password !== undefined) {
      const [sealedPassword] = await this.passwords.sealForOperator(caller, [password]);
      return this.services.call(PATTERNS.identity.stepUp, { sealedPassword, webauthn }, caller, SIGN_IN_DEADLINE_MS);
    }
    return this.services.call(PATTERNS.identity.stepUp, { factor: factor as SecondFactorInput, webauthn }, caller);
  }

  @Post('step-up/options')
  @HttpCode(200)
  @Authenticated({ console: true })
  stepUpOptions(@Caller() caller: ServiceCaller, @Req() request: FastifyRequest): Promise<{ passkey: Record<string, unknown> | null }> {
    return this.services.call(PATTERNS.identity.stepUpOptions, { webauthn: webAuthnOrigin(this.config, request) }, caller);
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
