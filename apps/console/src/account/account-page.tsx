import { useSession } from '../api/queries';
import { needsSecondFactor } from '../session/permissions';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';
import { TotpSection } from './totp-section';

/** The signed-in operator's own account: name, password, two-step verification (app, recovery codes, passkeys), sessions. */
export function AccountPage() {
  const account = useSession().data;
  if (!account) {
    return null;
  }
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Account</h1>
          <p className="muted">{account.operator.email}</p>
        </div>
      </div>
      {needsSecondFactor(account) ? (
        <p className="callout warning" role="status">
          Your team requires two-step verification for every operator. Set up an authenticator app or add a passkey below: the rest of the console opens once you have one.
        </p>
      ) : null}
      <div className="stack">
        <ProfileSection account={account} />
        <TotpSection account={account} />
        <PasskeysSection account={account} />
        <PasswordSection />
        <SessionsSection />
      </div>
    </>
  );
}
