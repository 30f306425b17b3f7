import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { RoleGrant } from '@game-wallet/contracts/console-access';
import type { ConsoleSessionInfo, GameView } from '@game-wallet/contracts/views';
import { queryKeys } from './api/queries';
import { StepUpProvider } from './session/step-up';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { ToastProvider } from './ui/toasts';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * Stubs `fetch` for a component test: `answers` maps `METHOD /path` (the console API path, query included) to an
 * answer, or to a function of the request body. Returns the calls made, with the headers each was sent with.
 */
export function stubApi(answers: Record<string, Answer | ((body: unknown) => Answer)>) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = url.replace(/^\/v1\/console/, '');
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path, body, headers: { ...(init.headers as Record<string, string> | undefined) } });
      const entry = answers[`${method} ${path}`];
      const answer = typeof entry === 'function' ? entry(body) : (entry ?? { status: 404, body: { message: `no stub for ${method} ${path}`, code: 'NOT_FOUND' } });
      return new Response(answer.status === 204 ? null : JSON.stringify(answer.body ?? {}), {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    }),
  );
  return calls;
}

/** A signed-in operator with `grants` (default: owner of every game) and no second factor. */
export function sessionOf(grants: RoleGrant[] = [{ role: 'owner', gameId: null }], twoFactor: Partial<ConsoleSessionInfo['twoFactor']> = {}): ConsoleSessionInfo {
  return {
    operator: { id: 'o1', email: 'ops@example.com', displayName: 'Ops', grants },
    expiresAt: '2026-11-22T10:00:00.000Z',
    sessionId: 's1',
    twoFactor: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false, ...twoFactor },
    stepUpUntil: null,
  };
}

/**
 * Renders `element` at `path` with the console's providers and a fresh cache; `session` is put in the cache as the
 * signed-in operator (undefined: the session is asked of the API like any call).
 */
export function renderAt(element: ReactElement, path = '/', session?: ConsoleSessionInfo | null) {
  return renderRoutes(<Route path="*" element={element} />, path, session);
}

/** Renders a game tab as the game page does: under `/games/:gameId`, with the game as outlet context; by default for an owner of every game. */
export function renderGameTab(tab: ReactElement, game: GameView, session: ConsoleSessionInfo = sessionOf()) {
  return renderRoutes(
    <Route path="/games/:gameId" element={<Outlet context={game} />}>
      <Route path="*" element={tab} />
    </Route>,
    `/games/${game.id}/tab`,
    session,
  );
}

/** Renders `routes` (a `<Route>` tree) at `path`, as {@link renderAt} does. */
export function renderRoutes(routes: ReactElement, path: string, session?: ConsoleSessionInfo | null) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { gcTime: 0 } } });
  if (session !== undefined) {
    queryClient.setQueryData(queryKeys.session, session);
  }
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <StepUpProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>{routes}</Routes>
          </MemoryRouter>
        </StepUpProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}
