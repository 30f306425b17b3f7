import type { InvitationPreview } from '@game-wallet/contracts/console-access';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PASSWORD_MAX, PasswordField, newPasswordProblem } from '../account/password-section';
import { DISPLAY_NAME_MAX } from '../account/profile-section';
import { ApiError } from '../api/client';
import { useAcceptInvitation, useInvitationPreview } from '../api/invitation';
import { SignInCard } from '../session/sign-in-page';
import { DateTime } from '../ui/date-time';
import { FormError, TextField } from '../ui/form';
import { Loading } from '../ui/states';
import { ROLE_NAMES } from '../team/grants';

/** The token of `#token=…` (a fragment: browsers never send it to a server). */
export function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** An invitation's roles in words ("Developer for all games", "Viewer for 2 games"); game names are not told before sign-in. */
export function describeInvitedRoles(grants: InvitationPreview['grants']): string {
  const roles = [...new Set(grants.map((grant) => grant.role))];
  return roles
    .map((role) => {
      const mine = grants.filter((grant) => grant.role === role);
      const scope = mine.some((grant) => grant.gameId === null) ? 'all games' : mine.length === 1 ? '1 game' : `${mine.length} games`;
      return `${ROLE_NAMES[role]} for ${scope}`;
    })
    .join(', ');
}

function Unusable({ title, children }: { title: string; children: string }) {
  return (
    <SignInCard title={title}>
      <p className="form-error" role="alert">
        {children}
      </p>
      <p>
        <Link to="/sign-in">Go to sign-in</Link>
      </p>
    </SignInCard>
  );
}

/**
 * `/console/invitation#token=…`: what the invitation is for, then a display name and a password; accepting signs the
 * new operator in and opens their games. The token is read from the fragment and then taken out of the address bar.
 */
export function InvitationPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromFragment(location.hash));
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [tried, setTried] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (location.hash !== '') {
      // Out of the address bar and the history, where a shoulder or a screenshot could read it.
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    }
  }, [location.hash, location.pathname, location.search, navigate]);

  if (token === '') {
    return <Unusable title="This link is incomplete">The invitation link has no token. Open the whole link you were sent, or ask for a new one.</Unusable>;
  }
  if (preview.isPending) {
    return (
      <SignInCard title="Your invitation">
        <Loading label="Reading the invitation…" />
      </SignInCard>
    );
  }
  if (preview.isError || (error instanceof ApiError && error.status === 404)) {
    const gone = (preview.error ?? error) instanceof ApiError && ((preview.error ?? error) as ApiError).status === 404;
    return gone ? (
      <Unusable title="This invitation cannot be used">
        The link has expired, was already used, or was revoked. Ask an owner of your team for a new invitation.
      </Unusable>
    ) : (
      <Unusable title="The invitation could not be read">{preview.error instanceof ApiError ? preview.error.message : 'Try again in a moment.'}</Unusable>
    );
  }

  const invitation = preview.data;
  const problems = newPasswordProblem(password, confirmation);
  const nameProblem = name.trim() === '' ? 'Enter your name.' : name.trim().length > DISPLAY_NAME_MAX ? `At most ${DISPLAY_NAME_MAX} characters.` : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameProblem || problems.password || problems.confirmation) {
      return;
    }
    setPending(true);
    setError(null);
    try {
      await accept(token, name.trim(), password);
      await navigate('/', { replace: true });
    } catch (failure) {
      setPassword('');
      setConfirmation('');
      setError(failure);
      setPending(false);
    }
  };

  return (
    <SignInCard title="Join the console">
      <p>
        You are invited as <strong>{describeInvitedRoles(invitation.grants)}</strong>. Set your name and password to accept; the invitation is valid until{' '}
        <DateTime value={invitation.expiresAt} />.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span>E-mail</span>
          <input type="email" name="email" autoComplete="username" value={invitation.email} readOnly />
        </label>
        <TextField label="Your name" value={name} onChange={setName} hint={tried && nameProblem ? nameProblem : 'As your team will see it.'} />
        <PasswordField
          label="Password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          hint={`12 to ${PASSWORD_MAX} characters.`}
          problem={tried ? problems.password : null}
        />
        <PasswordField label="Password, again" value={confirmation} onChange={setConfirmation} autoComplete="new-password" problem={tried ? problems.confirmation : null} />
        <FormError message={error === null ? null : error instanceof ApiError ? error.message : 'The invitation could not be accepted. Try again.'} />
        <button type="submit" className="button primary wide" disabled={pending}>
          {pending ? 'Joining…' : 'Accept and sign in'}
        </button>
      </form>
    </SignInCard>
  );
}
