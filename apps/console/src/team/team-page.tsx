import type { InvitationView, OperatorView } from '@game-wallet/contracts/console-access';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { useGames, useSession } from '../api/queries';
import { useConsoleSettings, useInvitations, useOperators, useRevokeInvitation, useUpdateConsoleSettings } from '../api/team';
import { useCan } from '../session/permissions';
import { DateTime } from '../ui/date-time';
import { QueryView, SectionHeader } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { useToast } from '../ui/toasts';
import { type GameNames, describeGrants } from './grants';
import { InviteDialog } from './invite-dialog';
import { OperatorDrawer } from './operator-drawer';
import { INVITATION_STATUS, describeTwoFactor } from './team-words';

/** The names of the games the console has listed, by id (for roles given per game). */
function useGameNames(): GameNames {
  const games = useGames();
  return useMemo(() => new Map((games.data?.pages ?? []).flatMap((page) => page.items).map((game) => [game.id, game.name])), [games.data]);
}

function Grants({ grants, names }: { grants: OperatorView['grants']; names: GameNames }) {
  const lines = describeGrants(grants, names);
  return lines.length === 0 ? <span className="muted">No role</span> : <span className="cell-stack">{lines.map((line) => <span key={line}>{line}</span>)}</span>;
}

function Operators({ names, manage }: { names: GameNames; manage: boolean }) {
  const operators = useOperators();
  const me = useSession().data?.operator.id;
  const [open, setOpen] = useState<string | null>(null);
  const opened = operators.data?.find((operator) => operator.id === open) ?? null;
  return (
    <div className="stack">
      <SectionHeader title="Operators">People who sign in to this console, their roles and second factors.</SectionHeader>
      <QueryView query={operators} loading="Loading the team…" isEmpty={(items) => items.length === 0} empty={<EmptyState title="No operators" />}>
        {(items) => (
          <div className="card">
            <table className="table">
              <caption className="visually-hidden">Operators</caption>
              <thead>
                <tr>
                  <th scope="col">Operator</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Two-step</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((operator) => (
                  <tr key={operator.id}>
                    <td data-label="Operator">
                      <span className="cell-stack">
                        <span className="strong">
                          {operator.displayName || operator.email}
                          {operator.id === me ? <span className="muted"> (you)</span> : null}
                        </span>
                        {operator.displayName ? <span className="muted small wrap">{operator.email}</span> : null}
                      </span>
                    </td>
                    <td data-label="Role">
                      <Grants grants={operator.grants} names={names} />
                    </td>
                    <td data-label="Status">
                      <span className={operator.status === 'active' ? 'badge on' : 'badge off'}>{operator.status === 'active' ? 'Active' : 'Suspended'}</span>
                    </td>
                    <td data-label="Two-step">{describeTwoFactor(operator.twoFactor)}</td>
                    <td data-label="Last sign-in">
                      <DateTime value={operator.lastSignInAt} fallback="Never" />
                    </td>
                    <td className="actions">
                      <button type="button" className="button compact" aria-label={`${manage ? 'Manage' : 'Details of'} ${operator.email}`} onClick={() => setOpen(operator.id)}>
                        {manage ? 'Manage' : 'Details'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      {opened ? <OperatorDrawer operator={opened} names={names} manage={manage} isMe={opened.id === me} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

function Invitations({ names, manage, operators }: { names: GameNames; manage: boolean; operators: OperatorView[] }) {
  const invitations = useInvitations();
  const revoke = useRevokeInvitation();
  const notify = useToast();
  const inviter = (invitation: InvitationView) => {
    const operator = operators.find((candidate) => candidate.id === invitation.invitedBy || candidate.email === invitation.invitedBy);
    return operator ? operator.displayName || operator.email : invitation.invitedBy;
  };
  const revokeOne = (invitation: InvitationView) =>
    revoke.mutate(invitation.id, {
      onSuccess: () => notify(`The invitation for ${invitation.email} was revoked: its link no longer works`),
      onError: (error) => notify(`Not revoked: ${error instanceof ApiError ? error.message : 'the platform could not be reached'}`, 'error'),
    });
  return (
    <div className="stack">
      <SectionHeader title="Invitations">Each link works once and expires after 72 hours.</SectionHeader>
      <QueryView
        query={invitations}
        loading="Loading invitations…"
        isEmpty={(items) => items.length === 0}
        empty={<EmptyState title="No invitations">{manage ? <p>Invite someone with “Invite”.</p> : null}</EmptyState>}
      >
        {(items) => (
          <div className="card">
            <table className="table">
              <caption className="visually-hidden">Invitations</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((invitation) => (
                  <tr key={invitation.id}>
                    <td data-label="E-mail" className="strong wrap">
                      {invitation.email}
                    </td>
                    <td data-label="Role">
                      <Grants grants={invitation.grants} names={names} />
                    </td>
                    <td data-label="Status">
                      <span className={invitation.status === 'pending' || invitation.status === 'accepted' ? 'badge on' : 'badge off'}>{INVITATION_STATUS[invitation.status]}</span>
                    </td>
                    <td data-label="Invited by" className="wrap">
                      {inviter(invitation)}
                    </td>
                    <td data-label="Expires">
                      <DateTime value={invitation.expiresAt} />
                    </td>
                    <td className="actions">
                      {manage && invitation.status === 'pending' ? (
                        <button
                          type="button"
                          className="button danger-ghost compact"
                          aria-label={`Revoke the invitation for ${invitation.email}`}
                          disabled={revoke.isPending && revoke.variables === invitation.id}
                          onClick={() => revokeOne(invitation)}
                        >
                          Revoke
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </div>
  );
}

/** The instance's setting an owner of every game controls: two factors for every operator. */
function TeamSettings() {
  const settings = useConsoleSettings();
  const update = useUpdateConsoleSettings();
  const notify = useToast();
  const hintId = useId();
  const required = settings.data?.requireTwoFactor ?? false;
  const toggle = () =>
    update.mutate(
      { requireTwoFactor: !required },
      {
        onSuccess: (_answer, sent) =>
          notify(sent.requireTwoFactor ? 'Every operator now needs two factors: those without one can only set one up' : 'Two factors are no longer required'),
        onError: (error) => notify(`Not changed: ${error instanceof ApiError ? error.message : 'the platform could not be reached'}`, 'error'),
      },
    );
  return (
    <div className="stack">
      <SectionHeader title="Security">Settings for every operator of this instance.</SectionHeader>
      <div className="card panel">
        <QueryView query={settings} loading="Loading the settings…" isEmpty={() => false} empty={null}>
          {() => (
            <div className="setting">
              <span className="switch-field">
                <button
                  type="button"
                  role="switch"
                  aria-checked={required}
                  aria-label="Require two factors for every operator"
                  aria-describedby={hintId}
                  className="switch"
                  disabled={update.isPending}
                  onClick={toggle}
                >
                  <span className="switch-thumb" aria-hidden="true" />
                </button>
                <span className="strong" aria-hidden="true">
                  Require two factors for every operator
                </span>
              </span>
              <p id={hintId} className="muted small">
                Operators without an authenticator app or a passkey are sent to their Account page to set one up, and can do nothing else until they have.
              </p>
            </div>
          )}
        </QueryView>
      </div>
    </div>
  );
}

/** The team: operators with their roles, invitations, and (for an owner of every game) the instance's security setting. */
export function TeamPage() {
  // Nothing is asked for an operator who may not see the team: the page does not exist for them.
  return useCan('operators.read') ? (
    <Team />
  ) : (
    <EmptyState title="This page does not exist">
      <Link to="/">Go to your games</Link>
    </EmptyState>
  );
}

function Team() {
  const manage = useCan('operators.manage');
  const ownsInstance = useCan('settings.manage');
  const names = useGameNames();
  const operators = useOperators();
  const [inviting, setInviting] = useState(false);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Team</h1>
          <p className="muted">Who may do what in this console: roles for every game or for chosen games.</p>
        </div>
        {manage ? (
          <button type="button" className="button primary" onClick={() => setInviting(true)}>
            Invite
          </button>
        ) : null}
      </div>
      <div className="stack">
        <Operators names={names} manage={manage} />
        <Invitations names={names} manage={manage} operators={operators.data ?? []} />
        {ownsInstance ? <TeamSettings /> : null}
      </div>
      {inviting ? <InviteDialog names={names} onClose={() => setInviting(false)} /> : null}
    </>
  );
}
