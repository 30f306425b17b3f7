import type { ConsoleAccountView, TotpEnrollmentView } from '@game-wallet/contracts/console-access';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTwoFactorCalls } from '../api/account';
import { ApiError } from '../api/client';
import { CopyButton } from '../ui/copy-button';
import { Dialog } from '../ui/dialog';
import { FormError } from '../ui/form';
import { QrCode } from '../ui/qr-code';
import { ErrorState, Loading } from '../ui/states';
import { useToast } from '../ui/toasts';
import { AccountSection } from './account-section';
import { RecoveryCodes } from './recovery-codes';

const failureText = (failure: unknown, fallback: string) => (failure instanceof ApiError ? failure.message : fallback);

/** A base32 secret in groups of four, easier to type. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Setting up an authenticator app: a new secret as a QR code (made here) and as text, confirmed with a code from the
 * app; then the ten recovery codes, shown once. The secret and the codes live in this dialog only.
 */
function TotpSetupDialog({ onClose }: { onClose: () => void }) {
  const calls = useTwoFactorCalls();
  const notify = useToast();
  const [enrollment, setEnrollment] = useState<TotpEnrollmentView | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const started = useRef(false);
  const secretId = useId();

  const start = () => {
    setLoadError(null);
    calls.startTotp().then(setEnrollment, setLoadError);
  };
  useEffect(() => {
    // Once, also under StrictMode's second mount: each call makes a new pending secret.
    if (!started.current) {
      started.current = true;
      start();
    }
  }, []);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError('Enter the 6 digits the app shows.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      setCodes(await calls.confirmTotp(digits));
      setEnrollment(null);
      notify('Two-step verification is on');
    } catch (failure) {
      setCode('');
      setError(failureText(failure, 'The code could not be checked.'));
    } finally {
      setPending(false);
    }
  };

  if (codes) {
    return (
      <Dialog title="Save your recovery codes" onClose={onClose}>
        <RecoveryCodes codes={codes} />
        <div className="dialog-actions">
          <button type="button" className="button primary" onClick={onClose}>
            Done
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title="Set up an authenticator app" onClose={onClose} description="Scan the code with an app such as 1Password, Google Authenticator or Aegis, then enter the 6 digits it shows.">
      {loadError !== null ? (
        <ErrorState error={loadError} retry={start} />
      ) : enrollment === null ? (
        <Loading label="Making a secret…" />
      ) : (
        <form onSubmit={(event) => void confirm(event)} noValidate>
          <div className="totp-setup">
            <QrCode value={enrollment.uri} label="QR code of the secret for your authenticator app" />
            <div className="field">
              <span id={secretId}>Or type this secret</span>
              <span className="secret-row">
                <code className="totp-secret" aria-labelledby={secretId}>
                  {groupSecret(enrollment.secret)}
                </code>
                <CopyButton value={enrollment.secret} label="secret" compact />
              </span>
            </div>
          </div>
          <label className="field">
            <span>Code from the app</span>
            <input inputMode="numeric" autoComplete="one-time-code" maxLength={9} spellCheck={false} placeholder="6 digits" value={code} onChange={(event) => setCode(event.target.value)} />
          </label>
          <FormError message={error} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={pending}>
              {pending ? 'Checking…' : 'Turn on'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** New recovery codes: a confirmation (the old ones stop working), then the codes, shown once. */
function RegenerateCodesDialog({ onClose }: { onClose: () => void }) {
  const calls = useTwoFactorCalls();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generate = async () => {
    setPending(true);
    setError(null);
    try {
      setCodes(await calls.regenerateRecoveryCodes());
    } catch (failure) {
      setError(failureText(failure, 'No new codes were made.'));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog title={codes ? 'Your new recovery codes' : 'Make new recovery codes?'} onClose={onClose}>
      {codes ? (
        <>
          <RecoveryCodes codes={codes} />
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      ) : (
        <>
          <p>Ten new codes replace the ones you have: the old codes stop working at once.</p>
          <FormError message={error} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose} autoFocus>
              Cancel
            </button>
            <button type="button" className="button primary" onClick={() => void generate()} disabled={pending}>
              {pending ? 'Making…' : 'Make new codes'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

function RemoveTotpDialog({ onClose, lastFactor }: { onClose: () => void; lastFactor: boolean }) {
  const calls = useTwoFactorCalls();
  const notify = useToast();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setPending(true);
    setError(null);
    try {
      await calls.removeTotp();
      notify('Authenticator app removed');
      onClose();
    } catch (failure) {
      setError(failureText(failure, 'The app was not removed.'));
      setPending(false);
    }
  };
  return (
    <Dialog title="Remove the authenticator app?" onClose={onClose}>
      <p>
        Sign-in stops asking for its codes, and your recovery codes stop working.
        {lastFactor ? ' You have no passkey: only your password will protect your account.' : ''}
      </p>
      <FormError message={error} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={() => void remove()} disabled={pending}>
          {pending ? 'Removing…' : 'Remove app'}
        </button>
      </div>
    </Dialog>
  );
}

/** Two-step verification with an authenticator app (TOTP), and its recovery codes. */
export function TotpSection({ account }: { account: ConsoleAccountView }) {
  const [open, setOpen] = useState<'setup' | 'codes' | 'remove' | null>(null);
  const { totp, recoveryCodesLeft, passkeys } = account.twoFactor;
  const close = () => setOpen(null);
  return (
    <AccountSection
      title="Authenticator app"
      intro={totp ? 'On: sign-in asks for a code from your app after your password.' : 'Off: add an app, and sign-in asks for one of its codes after your password.'}
      action={
        totp ? (
          <button type="button" className="button danger-ghost" onClick={() => setOpen('remove')}>
            Remove app
          </button>
        ) : (
          <button type="button" className="button primary" onClick={() => setOpen('setup')}>
            Set up an authenticator app
          </button>
        )
      }
    >
      {totp ? (
        <div className="inline-form">
          <p>
            <span className={recoveryCodesLeft > 2 ? 'badge on' : 'badge off'}>{recoveryCodesLeft} of 10</span> recovery codes left, for when you cannot use your app.
          </p>
          <button type="button" className="button" onClick={() => setOpen('codes')}>
            Make new recovery codes
          </button>
        </div>
      ) : null}
      {open === 'setup' ? <TotpSetupDialog onClose={close} /> : null}
      {open === 'codes' ? <RegenerateCodesDialog onClose={close} /> : null}
      {open === 'remove' ? <RemoveTotpDialog onClose={close} lastFactor={passkeys.length === 0} /> : null}
    </AccountSection>
  );
}
