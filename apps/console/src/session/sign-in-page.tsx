import type { SecondFactorInput } from '@game-wallet/contracts/console-access';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { type SecondFactorChallenge, useSecondFactor, useSession, useSignIn } from '../api/queries';
import { nextPath } from './next-path';
import { passkeyAssertion, passkeyProblem } from './passkeys';
import { FactorField, type FactorMode, FactorSwitches, factorOf, factorReady } from './second-factor-fields';

/** The message under the form for a failed sign-in: the platform's own words, or how long a lockout lasts. */
export function signInErrorMessage(error: unknown, secondsLeft: number): string {
  if (error instanceof ApiError && error.status === 429) {
    return secondsLeft > 0
      ? `Too many failed sign-ins: sign-in is locked. Try again in ${secondsLeft} s.`
      : 'Too many failed sign-ins. You can try again now.';
  }
  return error instanceof ApiError ? error.message : 'Sign-in failed. Try again.';
}

export function SignInPage() {
  const session = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const errorId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [lockedUntil, setLockedUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);

  useEffect(() => {
    if (lockedUntil <= now) {
      return undefined;
    }
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [lockedUntil, now]);

  if (session.data) {
    return <Navigate to={nextPath(location.search)} replace />;
  }

  const secondsLeft = Math.max(0, Math.ceil((lockedUntil - now) / 1000));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const secondStep = await signIn(email.trim(), password);
      setPassword('');
      if (secondStep) {
        setChallenge(secondStep);
        return;
      }
      await navigate(nextPath(location.search), { replace: true });
    } catch (failure) {
      setPassword('');
      setError(failure);
      if (failure instanceof ApiError && failure.status === 429) {
        const until = Date.now() + (failure.retryAfter ?? 60) * 1000;
        setLockedUntil(until);
        setNow(Date.now());
      }
    } finally {
      setPending(false);
    }
  };

  if (challenge) {
    return (
      <SignInCard title="Two-step verification">
        <SecondStep
          challenge={challenge}
          onRestart={(message) => {
            setChallenge(null);
            setError(message === null ? null : new Error(message));
          }}
        />
      </SignInCard>
    );
  }

  return (
    <SignInCard title="Sign in to the console">
      <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={error ? errorId : undefined}>
        <label className="field">
          <span>E-mail</span>
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} autoFocus />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error instanceof ApiError || !(error instanceof Error) ? signInErrorMessage(error, secondsLeft) : error.message}
          </p>
        ) : null}
        <button type="submit" className="button primary wide" disabled={pending || secondsLeft > 0 || email.trim() === '' || password === ''}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </SignInCard>
  );
}

/** The card of the public pages (sign-in, invitation): the brand, a title, the form. */
export function SignInCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="brand brand-large">
          <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width="36" height="36" />
          <span>Game Wallet</span>
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/**
 * The second step of a sign-in: a code of the operator's authenticator app, one of their recovery codes, or a passkey.
 * The challenge is single use and lasts 5 minutes; once it is over, the operator starts again with the password.
 */
function SecondStep({ challenge, onRestart }: { challenge: SecondFactorChallenge; onRestart: (message: string | null) => void }) {
  const secondFactor = useSecondFactor();
  const navigate = useNavigate();
  const location = useLocation();
  const errorId = useId();
  const modes: FactorMode[] = (['totp', 'recovery-code'] as const).filter((method) => challenge.methods.includes(method));
  const passkey = challenge.methods.includes('passkey') ? challenge.passkey : null;
  const [mode, setMode] = useState<FactorMode | null>(modes.includes('totp') || passkey === null ? (modes[0] ?? null) : null);
  const [value, setValue] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const finish = async (factor: () => Promise<SecondFactorInput>) => {
    if (Date.parse(challenge.expiresAt) <= Date.now()) {
      onRestart('The sign-in took longer than 5 minutes. Enter your password again.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await secondFactor(challenge.challenge, await factor());
      await navigate(nextPath(location.search), { replace: true });
    } catch (failure) {
      setValue('');
      setPending(false);
      setError(failure instanceof ApiError ? failure.message : passkeyProblem(failure));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode !== null && factorReady(mode, value)) {
      const factor = factorOf(mode, value);
      void finish(async () => factor as SecondFactorInput);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
      <p className="muted">
        {mode === 'totp'
          ? 'Enter the 6-digit code your authenticator app shows for Game Wallet.'
          : mode === 'recovery-code'
            ? 'Enter one of the recovery codes you saved when you set up two-step verification. Each works once.'
            : 'Use the passkey you added to your account.'}
      </p>
      {passkey ? (
        <div className="factor-passkey">
          <button
            type="button"
            className={mode === null ? 'button primary wide' : 'button wide'}
            disabled={pending}
            autoFocus={mode === null}
            onClick={() => void finish(async () => ({ passkey: await passkeyAssertion(passkey) }))}
          >
            Use a passkey
          </button>
        </div>
      ) : null}
      {mode === null ? null : <FactorField mode={mode} value={value} onChange={setValue} />}
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {mode === null ? null : (
        <button type="submit" className="button primary wide" disabled={pending || !factorReady(mode, value)}>
          {pending ? 'Verifying…' : 'Verify'}
        </button>
      )}
      <FactorSwitches
        modes={modes}
        mode={mode}
        onMode={(next) => {
          setMode(next);
          setValue('');
          setError(null);
        }}
      />
      <p className="factor-switches">
        <button type="button" className="link-button" onClick={() => onRestart(null)}>
          Back to sign-in
        </button>
      </p>
    </form>
  );
}
