import { Link, NavLink, Outlet } from 'react-router';
import { useCan } from '../session/permissions';
import { GameSwitcher } from './game-switcher';
import { UserMenu } from './user-menu';

/** The frame of every signed-in page: brand, game switcher, Team (for those who may see it), the user menu. */
export function AppShell() {
  const seesTeam = useCan('operators.read');
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
          {seesTeam ? (
            <nav aria-label="Console">
              <NavLink to="/team" className={({ isActive }) => (isActive ? 'topbar-link active' : 'topbar-link')}>
                Team
              </NavLink>
            </nav>
          ) : null}
          <UserMenu />
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
