import type { ConsoleAccountView } from '@game-wallet/contracts/console-access';
import { type FormEvent, useState } from 'react';
import { useUpdateDisplayName } from '../api/account';
import { ApiError } from '../api/client';
import { FormError, TextField } from '../ui/form';
import { useToast } from '../ui/toasts';
import { AccountSection } from './account-section';

export const DISPLAY_NAME_MAX = 100;

/** The name the Team page and the audit trail show for the operator. */
export function ProfileSection({ account }: { account: ConsoleAccountView }) {
  const [name, setName] = useState(account.operator.displayName);
  const update = useUpdateDisplayName();
  const notify = useToast();
  const trimmed = name.trim();
  const problem = trimmed === '' ? 'Enter a name.' : trimmed.length > DISPLAY_NAME_MAX ? `At most ${DISPLAY_NAME_MAX} characters.` : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem === null) {
      update.mutate(trimmed, { onSuccess: () => notify('Display name saved') });
    }
  };
  return (
    <AccountSection title="Profile" intro="The name your team sees beside your e-mail.">
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField label="Display name" value={name} onChange={setName} hint={`1 to ${DISPLAY_NAME_MAX} characters.`} />
        <button type="submit" className="button" disabled={problem !== null || trimmed === account.operator.displayName || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save name'}
        </button>
      </form>
      <FormError message={update.error ? (update.error instanceof ApiError ? update.error.message : 'The name could not be saved.') : null} />
    </AccountSection>
  );
}
