import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../api/queries';
import { ErrorState, Loading } from '../ui/states';
import { signInPathFor } from './next-path';
import { needsSecondFactor } from './permissions';

/**
 * The signed-in part of the console: without a session, sign-in first, then back to the page that was asked for. When
 * the instance requires two factors and the operator has none, the Account page, where they set one up.
 */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) {
    return <Loading label="Opening the console…" />;
  }
  if (session.isError) {
    return (
      <main className="page">
        <ErrorState error={session.error} retry={() => void session.refetch()} />
      </main>
    );
  }
  if (session.data === null) {
    return <Navigate to={signInPathFor(location.pathname, location.search)} replace />;
  }
  if (needsSecondFactor(session.data) && location.pathname !== '/account') {
    return <Navigate to="/account" replace />;
  }
  return <Outlet />;
}
