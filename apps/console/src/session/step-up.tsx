import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import type { ConsoleAccountView } from '@game-wallet/contracts/console-access';
import { useStepUp } from '../api/account';
import { ApiError, setStepUpHandler, stepUpCancelled } from '../api/client';
import { useSession } from '../api/queries';
import { Dialog } from '../ui/dialog';
import { FormError } from '../ui/form';
import { FactorField, type FactorMode, FactorSwitches, factorOf, factorReady } from './second-factor-fields';
import { passkeyProblem } from './passkeys';

/**
 * Answers every console call refused with 401 `STEP_UP_REQUIRED`, wherever it was made: one dialog asks for a second
 * factor (a code, a recovery code, a passkey, or the password of an operator who has no second factor) and the call is
 * then sent again (see `apiRequest`). Cancelling rejects the call with a message saying so.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [asking, setAsking] = useState<{ resolve: () => void; reject: (error: unknown) => void } | null>(null);
  useEffect(() => setStepUpHandler(() => new Promise<void>((resolve, reject) => setAsking({ resolve, reject }))), []);
  return (
    <>
      {children}
      {asking ? (
        <StepUpDialog
          onDone={() => {
            asking.resolve();
            setAsking(null);
          }}
          onCancel={() => {
            asking.reject(stepUpCancelled());
            setAsking(null);
          }}
        />
      ) : null}
    </>
  );
}

/** The typed factors an operator has: their app's codes and recovery codes, else (no second factor at all) the password. */
function factorModes(twoFactor: ConsoleAccountView['twoFactor'] | undefined): FactorMode[] {
  const modes: FactorMode[] = twoFactor?.totp ? ['totp'] : [];
  if ((twoFactor?.recoveryCodesLeft ?? 0) > 0) {
    modes.push('recovery-code');
  }
  return twoFactor?.totp || (twoFactor?.passkeys.length ?? 0) > 0 ? modes : ['password'];
}

function StepUpDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const twoFactor = useSession().data?.twoFactor;
  const stepUp = useStepUp();
  const hintId = useId();
  const hasPasskeys = (twoFactor?.passkeys.length ?? 0) > 0;
  const modes = factorModes(twoFactor);
  // An operator with passkeys and no app is offered the passkey first.
  const [mode, setMode] = useState<FactorMode | null>(hasPasskeys && !twoFactor?.totp ? null : modes[0]);
  const [value, setValue] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const attempt = async (factor: Parameters<typeof stepUp>[0]) => {
    setPending(true);
    setError(null);
    try {
      await stepUp(factor);
      onDone();
    } catch (failure) {
      setValue('');
      setPending(false);
      setError(failure instanceof ApiError ? failure.message : passkeyProblem(failure));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode !== null && factorReady(mode, value)) {
      void attempt(factorOf(mode, value));
    }
  };

  return (
    <Dialog
      title="Confirm it is you"
      onClose={onCancel}
      description={
        mode === 'password'
          ? 'This action needs your password again (you have no second factor yet).'
          : 'This action needs a second factor given within the last 5 minutes.'
      }
    >
      <form onSubmit={submit} noValidate aria-describedby={hintId}>
        {hasPasskeys ? (
          <div className="factor-passkey">
            <button type="button" className={mode === null ? 'button primary wide' : 'button wide'} onClick={() => void attempt('passkey')} disabled={pending} autoFocus={mode === null}>
              Use a passkey
            </button>
          </div>
        ) : null}
        {mode === null ? null : <FactorField mode={mode} value={value} onChange={setValue} />}
        <p id={hintId} className="muted small">
          The action you started is sent again once you confirm; nothing else changes.
        </p>
        <FactorSwitches
          modes={modes}
          mode={mode}
          onMode={(next) => {
            setMode(next);
            setValue('');
            setError(null);
          }}
        />
        <FormError message={error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          {mode === null ? null : (
            <button type="submit" className="button primary" disabled={pending || !factorReady(mode, value)}>
              {pending ? 'Confirming…' : 'Confirm'}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
