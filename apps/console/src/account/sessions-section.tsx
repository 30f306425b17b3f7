import { useAccountSessions, useEndAccountSession } from '../api/account';
import { ApiError } from '../api/client';
import { QueryView } from '../ui/query-view';
import { SessionsTable } from '../ui/sessions-table';
import { useToast } from '../ui/toasts';
import { AccountSection } from './account-section';

/** The operator's console sessions; end one, or every one but this. */
export function SessionsSection() {
  const sessions = useAccountSessions();
  const end = useEndAccountSession();
  const notify = useToast();
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;
  const run = (sessionId: string | null) =>
    end.mutate(sessionId, {
      onSuccess: () => notify(sessionId === null ? 'Your other sessions were ended' : 'Session ended'),
      onError: (error) => notify(error instanceof ApiError ? `Not ended: ${error.message}` : 'Not ended: the platform could not be reached', 'error'),
    });
  return (
    <AccountSection
      title="Sessions"
      intro="Where you are signed in. A session you end is signed out on every gateway within a second."
      action={
        others > 0 ? (
          <button type="button" className="button danger-ghost" onClick={() => run(null)} disabled={end.isPending}>
            End all other sessions
          </button>
        ) : undefined
      }
    >
      <QueryView query={sessions} loading="Loading your sessions…" isEmpty={(items) => items.length === 0} empty={<p className="muted">No session.</p>}>
        {(items) => <SessionsTable sessions={items} caption="Your sessions" onEnd={(session) => run(session.id)} ending={end.isPending ? end.variables : null} />}
      </QueryView>
    </AccountSection>
  );
}
