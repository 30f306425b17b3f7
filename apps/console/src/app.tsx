import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter, Link, Route, Routes } from 'react-router';
import { ApiKeysTab } from './game/api-keys-tab';
import { AuditTab } from './game/audit-tab';
import { AccountPage } from './account/account-page';
import { GamePage, GameTab } from './game/game-page';
import { OverviewTab } from './game/overview-tab';
import { SigningPolicyTab } from './game/signing-policy-tab';
import { PlayersTab } from './game/players-tab';
import { WebhooksTab } from './game/webhooks-tab';
import { GamesPage } from './games/games-page';
import { InvitationPage } from './invitation/invitation-page';
import { RequireSession } from './session/require-session';
import { SignInPage } from './session/sign-in-page';
import { StepUpProvider } from './session/step-up';
import { AppShell } from './shell/app-shell';
import { TeamPage } from './team/team-page';
import { EmptyState } from './ui/states';
import { ToastProvider } from './ui/toasts';

function NotFoundPage() {
  return (
    <EmptyState title="This page does not exist">
      <Link to="/">Go to your games</Link>
    </EmptyState>
  );
}

/** The console's screens under `/console` (client-side routes; the gateway answers every one with this app). */
export function ConsoleRoutes() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/invitation" element={<InvitationPage />} />
      <Route element={<RequireSession />}>
        <Route element={<AppShell />}>
          <Route index element={<GamesPage />} />
          <Route path="/games/:gameId" element={<GamePage />}>
            <Route index element={<OverviewTab />} />
            <Route path="api-keys" element={<GameTab permission="apiKeys.read"><ApiKeysTab /></GameTab>} />
            <Route path="players" element={<GameTab permission="players.read"><PlayersTab /></GameTab>} />
            <Route path="webhooks" element={<GameTab permission="webhooks.read"><WebhooksTab /></GameTab>} />
            <Route path="audit" element={<GameTab permission="audit.read"><AuditTab /></GameTab>} />
            <Route path="signing-policy" element={<GameTab permission="policy.read"><SigningPolicyTab /></GameTab>} />
          </Route>
          <Route path="/account" element={<AccountPage />} />
          <Route path="/team" element={<TeamPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <StepUpProvider>
          <BrowserRouter basename="/console">
            <ConsoleRoutes />
          </BrowserRouter>
        </StepUpProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
