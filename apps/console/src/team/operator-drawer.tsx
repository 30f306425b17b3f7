import type { OperatorView } from '@game-wallet/contracts/console-access';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../api/client';
import { useEndOperatorSession, useOperatorSessions, useRemoveOperator, useUpdateOperator } from '../api/team';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { Fact } from '../ui/facts';
import { FormError } from '../ui/form';
import { QueryView } from '../ui/query-view';
import { SessionsTable } from '../ui/sessions-table';
import { useToast } from '../ui/toasts';
import { type GameNames, type GrantsDraft, describeGrants, draftOf, mixedRoles } from './grants';
import { GrantsFields, useGrantsFor } from './grants-fields';
import { describeTwoFactor } from './team-words';

const failureText = (failure: unknown, fallback: string) => (failure instanceof ApiError ? failure.message : fallback);

function RoleForm({ operator, names }: { operator: OperatorView; names: GameNames }) {
  const update = useUpdateOperator(operator.id);
  const notify = useToast();
  const [draft, setDraft] = useState<GrantsDraft>(() => draftOf(operator.grants));
  const grants = useGrantsFor(draft);
  const [tried, setTried] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (grants.length > 0) {
      update.mutate({ grants }, { onSuccess: (updated) => notify(`${updated.email}: ${describeGrants(updated.grants, names).join('; ')}`) });
    }
  };
  return (
    <form className="subsection" onSubmit={submit} noValidate aria-label="Role">
      <h3>Role</h3>
      {mixedRoles(operator.grants) ? <p className="muted small">They hold several roles; saving gives them this one role only.</p> : null}
      <GrantsFields value={draft} onChange={setDraft} names={names} tried={tried} />
      <FormError message={update.error ? failureText(update.error, 'The role was not changed.') : null} />
      <div>
        <button type="submit" className="button primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save role'}
        </button>
      </div>
    </form>
  );
}

function OperatorSessions({ operator }: { operator: OperatorView }) {
  const sessions = useOperatorSessions(operator.id);
  const end = useEndOperatorSession(operator.id);
  const notify = useToast();
  const run = (sessionId: string | null) =>
    end.mutate(sessionId, {
      onSuccess: () => notify(sessionId === null ? `Every session of ${operator.email} was ended` : 'Session ended'),
      onError: (error) => notify(`Not ended: ${failureText(error, 'the platform could not be reached')}`, 'error'),
    });
  return (
    <section className="subsection" aria-label="Their sessions">
      <div className="section-header">
        <h3>Sessions</h3>
        {sessions.data && sessions.data.some((session) => !session.current) ? (
          <button type="button" className="button danger-ghost compact" onClick={() => run(null)} disabled={end.isPending}>
            End all their sessions
          </button>
        ) : null}
      </div>
      <QueryView query={sessions} loading="Loading their sessions…" isEmpty={(items) => items.length === 0} empty={<p className="muted">Not signed in anywhere.</p>}>
        {(items) => <SessionsTable sessions={items} caption={`Sessions of ${operator.email}`} onEnd={(session) => run(session.id)} ending={end.isPending ? end.variables : null} />}
      </QueryView>
    </section>
  );
}

function RemoveOperatorDialog({ operator, onClose, onRemoved }: { operator: OperatorView; onClose: () => void; onRemoved: () => void }) {
  const remove = useRemoveOperator(operator.id);
  const notify = useToast();
  return (
    <Dialog title={`Remove ${operator.email}?`} onClose={onClose}>
      <p>They are signed out on every gateway within a second and can no longer sign in. To let them back, invite them again.</p>
      <FormError message={remove.error ? failureText(remove.error, 'They were not removed.') : null} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                notify(`${operator.email} was removed from the team`);
                onRemoved();
              },
            })
          }
        >
          {remove.isPending ? 'Removing…' : 'Remove operator'}
        </button>
      </div>
    </Dialog>
  );
}

/**
 * One operator, for an owner: who they are, their role and games, suspend or reactivate, their sessions (ending one
 * or all), and removal behind a confirmation. `manage` false: what they are, read-only.
 */
export function OperatorDrawer({ operator, names, manage, isMe, onClose }: { operator: OperatorView; names: GameNames; manage: boolean; isMe: boolean; onClose: () => void }) {
  const status = useUpdateOperator(operator.id);
  const notify = useToast();
  const [removing, setRemoving] = useState(false);
  const suspended = operator.status === 'suspended';
  const toggleStatus = () =>
    status.mutate(
      { status: suspended ? 'active' : 'suspended' },
      { onSuccess: (updated) => notify(updated.status === 'suspended' ? `${updated.email} is suspended and signed out` : `${updated.email} can sign in again`) },
    );
  return (
    <Dialog title={operator.displayName || operator.email} onClose={onClose} variant="drawer">
      <div className="drawer-content">
        <dl className="facts">
          <Fact label="E-mail">{operator.email}</Fact>
          <Fact label="Role">{describeGrants(operator.grants, names).join('; ') || '—'}</Fact>
          <Fact label="Status">{suspended ? 'Suspended' : 'Active'}</Fact>
          <Fact label="Two-step">{describeTwoFactor(operator.twoFactor)}</Fact>
          <Fact label="Last sign-in">
            <DateTime value={operator.lastSignInAt} fallback="Never" />
          </Fact>
          <Fact label="Member since">
            <DateTime value={operator.createdAt} />
          </Fact>
        </dl>
        {manage ? <RoleForm key={operator.grants.map((grant) => `${grant.role}:${grant.gameId}`).join()} operator={operator} names={names} /> : null}
        {manage && !isMe ? (
          <section className="subsection" aria-label="Access">
            <h3>Access</h3>
            <p className="muted small">{suspended ? 'Suspended: they cannot sign in until reactivated.' : 'Suspending signs them out at once and keeps them from signing in.'}</p>
            <FormError message={status.error ? failureText(status.error, 'Not changed.') : null} />
            <div className="form-actions">
              <button type="button" className="button" onClick={toggleStatus} disabled={status.isPending}>
                {suspended ? 'Reactivate' : 'Suspend'}
              </button>
              <button type="button" className="button danger-ghost" onClick={() => setRemoving(true)}>
                Remove from team
              </button>
            </div>
          </section>
        ) : null}
        {isMe ? null : <OperatorSessions operator={operator} />}
      </div>
      {removing ? <RemoveOperatorDialog operator={operator} onClose={() => setRemoving(false)} onRemoved={onClose} /> : null}
    </Dialog>
  );
}
