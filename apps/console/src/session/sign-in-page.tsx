import { type FormEvent, useEffect, useId, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useSession, useSignIn } from '../api/queries';
import { nextPath } from './next-path';

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
      await signIn(email.trim(), password);
      setPassword('');
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

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="brand brand-large">
          <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width="36" height="36" />
          <span>Game Wallet</span>
        </div>
        <h1>Sign in to the console</h1>
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
              {signInErrorMessage(error, secondsLeft)}
            </p>
          ) : null}
          <button type="submit" className="button primary wide" disabled={pending || secondsLeft > 0 || email.trim() === '' || password === ''}>
            {pending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
