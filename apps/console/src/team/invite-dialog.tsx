import type { CreatedInvitationView } from '@game-wallet/contracts/console-access';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../api/client';
import { useCreateInvitation } from '../api/team';
import { SecretField } from '../ui/copy-button';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { DialogActions, FormError } from '../ui/form';
import { useToast } from '../ui/toasts';
import type { GameNames, GrantsDraft } from './grants';
import { GrantsFields, useGrantsFor } from './grants-fields';

const EMAIL_MAX = 320;

export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed === '') {
    return 'Enter an e-mail address.';
  }
  return trimmed.length > EMAIL_MAX || !/^[^\s@]+@[^\s@]+$/.test(trimmed) ? 'Enter an e-mail address such as ada@example.com.' : null;
}

/**
 * "Invite": an e-mail, a role and its games; then the single-use link, shown this once to copy. The link lives only in
 * this dialog's state: closing it forgets the link (the list keeps the invitation without it).
 */
export function InviteDialog({ names, onClose }: { names: GameNames; onClose: () => void }) {
  const createInvitation = useCreateInvitation();
  const notify = useToast();
  const [email, setEmail] = useState('');
  const [draft, setDraft] = useState<GrantsDraft>({ role: 'viewer', scope: 'all', gameIds: [] });
  const grants = useGrantsFor(draft);
  const [tried, setTried] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedInvitationView | null>(null);
  const emailId = useId();
  const emailErrorId = useId();
  const warningId = useId();
  const problem = emailProblem(email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    // No grant: chosen games, none chosen (the form says so).
    if (problem !== null || grants.length === 0) {
      return;
    }
    setPending(true);
    setError(null);
    try {
      const invitation = await createInvitation(email.trim(), grants);
      setCreated(invitation);
      notify(`Invitation for ${invitation.email} created`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The invitation could not be created.');
    } finally {
      setPending(false);
    }
  };

  if (created) {
    return (
      <Dialog title="Invitation link" onClose={onClose}>
        <p id={warningId} className="callout warning">
          Copy this link now and send it to {created.email} yourself: <strong>it will not be shown again</strong>. It works once, until <DateTime value={created.expiresAt} />.
          {created.mailed ? ' It was also sent to that address by e-mail.' : ''}
        </p>
        <SecretField label={`Invitation link for ${created.email}`} value={created.link} copyLabel="invitation link" warningId={warningId} rows={2} />
        <div className="dialog-actions">
          <button type="button" className="button primary" onClick={onClose} autoFocus>
            Done
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title="Invite an operator" onClose={onClose} description="They get a single-use link to set their name and password; it expires in 72 hours.">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label htmlFor={emailId}>E-mail</label>
          <input
            id={emailId}
            type="email"
            autoComplete="off"
            maxLength={EMAIL_MAX}
            value={email}
            aria-invalid={tried && problem !== null ? true : undefined}
            aria-describedby={tried && problem !== null ? emailErrorId : undefined}
            onChange={(event) => setEmail(event.target.value)}
            autoFocus
          />
          {tried && problem !== null ? (
            <p id={emailErrorId} className="field-error">
              {problem}
            </p>
          ) : null}
        </div>
        <GrantsFields value={draft} onChange={setDraft} names={names} tried={tried} />
        <FormError message={error} />
        <DialogActions onCancel={onClose} pending={pending}>
          Create invitation
        </DialogActions>
      </form>
    </Dialog>
  );
}
