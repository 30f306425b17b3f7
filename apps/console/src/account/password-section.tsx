import { type FormEvent, useId, useState } from 'react';
import { useChangePassword } from '../api/account';
import { ApiError } from '../api/client';
import { FieldError, FormError } from '../ui/form';
import { useToast } from '../ui/toasts';
import { AccountSection } from './account-section';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/** What is wrong with a new password and its confirmation, or null. */
export function newPasswordProblem(password: string, confirmation: string): { password: string | null; confirmation: string | null } {
  return {
    password:
      password.length < PASSWORD_MIN ? `At least ${PASSWORD_MIN} characters.` : password.length > PASSWORD_MAX ? `At most ${PASSWORD_MAX} characters.` : null,
    confirmation: confirmation !== password ? 'The two passwords differ.' : null,
  };
}

/** A labelled password input with its own problem under it. */
export function PasswordField({
  label,
  value,
  onChange,
  autoComplete,
  problem,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  problem?: string | null;
  hint?: string;
}) {
  const id = useId();
  const problemId = useId();
  const hintId = useId();
  const describedBy = [hint ? hintId : null, problem ? problemId : null].filter((item) => item !== null).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete={autoComplete}
        maxLength={PASSWORD_MAX}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <span id={hintId} className="muted small">
          {hint}
        </span>
      ) : null}
      <FieldError id={problemId} message={problem ?? null} />
    </div>
  );
}

/** Changes the password; the operator's other sessions end (a stolen session does not outlive it). */
export function PasswordSection() {
  const changePassword = useChangePassword();
  const notify = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [tried, setTried] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const problems = newPasswordProblem(next, confirmation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setDone(null);
    if (current === '' || problems.password || problems.confirmation) {
      return;
    }
    setPending(true);
    setError(null);
    try {
      const ended = await changePassword(current, next);
      const message = `Password changed. ${ended === 0 ? 'You had no other session.' : ended === 1 ? '1 other session was ended.' : `${ended} other sessions were ended.`}`;
      setDone(message);
      notify('Password changed');
      setTried(false);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The password could not be changed.');
    } finally {
      setCurrent('');
      setNext('');
      setConfirmation('');
      setPending(false);
    }
  };

  return (
    <AccountSection title="Password" intro="Changing it signs you out everywhere else: your other sessions end at once.">
      <form className="narrow-form" onSubmit={(event) => void submit(event)} noValidate>
        <PasswordField label="Current password" value={current} onChange={setCurrent} autoComplete="current-password" problem={tried && current === '' ? 'Enter your current password.' : null} />
        <PasswordField
          label="New password"
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters; a passphrase of several words is easy to type and hard to guess.`}
          problem={tried ? problems.password : null}
        />
        <PasswordField label="New password, again" value={confirmation} onChange={setConfirmation} autoComplete="new-password" problem={tried ? problems.confirmation : null} />
        <FormError message={error} />
        {done ? (
          <p className="form-success" role="status">
            {done}
          </p>
        ) : null}
        <div>
          <button type="submit" className="button primary" disabled={pending}>
            {pending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </AccountSection>
  );
}
