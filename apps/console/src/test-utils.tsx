import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { GameView } from '@game-wallet/contracts/views';
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

/** Renders `element` at `path` with the console's providers and a fresh cache. */
export function renderAt(element: ReactElement, path = '/') {
  return renderRoutes(<Route path="*" element={element} />, path);
}

/** Renders a game tab as the game page does: under `/games/:gameId`, with the game as outlet context. */
export function renderGameTab(tab: ReactElement, game: GameView) {
  return renderRoutes(
    <Route path="/games/:gameId" element={<Outlet context={game} />}>
      <Route path="*" element={tab} />
    </Route>,
    `/games/${game.id}/tab`,
  );
}

function renderRoutes(routes: ReactElement, path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { gcTime: 0 } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>{routes}</Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}
