import { ExecutionContext, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppError, Principal } from '@game-wallet/contracts';
import { Public } from '@game-wallet/http';
import { AuthGuard } from './auth.guard';
import { Authenticated, AuthRequirement } from './authenticated.decorator';
import { GatewayAuth } from './gateway-auth';
import { RateDecision } from './rate-limiter';

/** Routes as a controller declares them: the guard reads only their decorators. */
class Routes {
  @Public()
  health(): string {
    return 'ok';
  }

  @Authenticated({ apiKey: true })
  players(): string {
    return 'players';
  }

  forgotten(): string {
    return 'open';
  }
}

const GAME_KEY: Principal = { kind: 'apiKey', applicationId: 'game-a', keyId: 'key-1' };
const allowed = (remaining = 99): RateDecision => ({ allowed: true, limit: 100, remaining, reset: 1, retryAfter: 0 });

/** What the guard asks of authentication, answered as each test needs; records what it was asked. */
class FakeAuth {
  asked: AuthRequirement[] = [];
  answer: () => Principal | Promise<Principal> = () => GAME_KEY;
  decision: RateDecision | undefined = allowed();
  blockedChecks = 0;
  refuseBlockedClient(): void {
    this.blockedChecks += 1;
  }
  authenticate(_credentials: unknown, requirement: AuthRequirement): Principal | Promise<Principal> {
    this.asked.push(requirement);
    return this.answer();
  }
  failedAuthentication(_ip: string, error: unknown): Promise<never> {
    return Promise.reject(error);
  }
  rateLimit(): RateDecision | undefined {
    return this.decision;
  }
}

/** A request as Fastify hands it over: headers, the client's address and its connection. */
const requestWith = (headers: Record<string, string> = {}): Record<string, unknown> => ({ headers, ip: '203.0.113.9', raw: { socket: {} } });

function contextFor(handler: keyof Routes, request: Record<string, unknown>, headers: Record<string, unknown>): ExecutionContext {
  const reply = { headers: (values: Record<string, unknown>) => Object.assign(headers, values) };
  return {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard', () => {
  let guard: AuthGuard;
  let auth: FakeAuth;

  beforeEach(async () => {
    auth = new FakeAuth();
    const module = await Test.createTestingModule({ providers: [AuthGuard, { provide: GatewayAuth, useValue: auth }] }).compile();
    guard = module.get(AuthGuard);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('lets a @Public route through without asking for credentials', async () => {
    await expect(guard.canActivate(contextFor('health', requestWith(), {}))).resolves.toBe(true);
    expect(auth.asked).toEqual([]);
  });

  it('refuses a route that declares neither @Authenticated nor @Public with 403 FORBIDDEN (deny by default)', async () => {
    await expect(guard.canActivate(contextFor('forgotten', requestWith(), {}))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(auth.asked).toEqual([]);
  });

  it("authenticates with the route's requirement and leaves the principal on the request", async () => {
    const request = requestWith({ 'x-api-key': 'gw_key' });
    await expect(guard.canActivate(contextFor('players', request, {}))).resolves.toBe(true);
    expect(auth.asked).toEqual([{ apiKey: true }]);
    expect(request.principal).toEqual(GAME_KEY);
  });

  it('answers what authentication failed with (401), and sets no principal', async () => {
    auth.answer = () => {
      throw new AppError('INVALID_API_KEY', 'Unknown API key');
    };
    const request = requestWith({ 'x-api-key': 'gw_wrong' });
    await expect(guard.canActivate(contextFor('players', request, {}))).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
    expect(request.principal).toBeUndefined();
  });

  it('refuses an authenticated caller over its rate with 429 RATE_LIMITED, Retry-After and RateLimit-* headers', async () => {
    auth.decision = { allowed: false, limit: 100, remaining: 0, reset: 2, retryAfter: 1 };
    const headers: Record<string, unknown> = {};
    await expect(guard.canActivate(contextFor('players', requestWith(), headers))).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
    expect(headers).toEqual({ 'ratelimit-limit': 100, 'ratelimit-remaining': 0, 'ratelimit-reset': 2 });
  });

  it('sends RateLimit-* headers only once less than half the burst is left', async () => {
    const plenty: Record<string, unknown> = {};
    await guard.canActivate(contextFor('players', requestWith(), plenty));
    expect(plenty).toEqual({});
    auth.decision = allowed(40);
    const nearing: Record<string, unknown> = {};
    await guard.canActivate(contextFor('players', requestWith(), nearing));
    expect(nearing).toEqual({ 'ratelimit-limit': 100, 'ratelimit-remaining': 40, 'ratelimit-reset': 1 });
  });
});
