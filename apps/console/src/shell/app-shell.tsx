import { Link, Outlet, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../api/queries';
import { useToast } from '../ui/toasts';
import { GameSwitcher } from './game-switcher';

/** The frame of every signed-in page: brand, game switcher, who is signed in, sign-out. */
export function AppShell() {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const notify = useToast();
  const leave = () =>
    signOut.mutate(undefined, {
      onSuccess: () => void navigate('/sign-in', { replace: true }),
      onError: () => notify('Sign-out failed; try again', 'error'),
    });
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Game Wallet console: all games">
          <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width="28" height="28" />
          <span>Game Wallet</span>
        </Link>
        <GameSwitcher />
        <div className="topbar-end">
          <span className="operator" title="Signed in as">
            {session.data?.operator.email}
          </span>
          <button type="button" className="button ghost" onClick={leave} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
