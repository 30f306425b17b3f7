import type { StepUpFactor } from '../api/account';

/** How an operator proves it is them a second time: a code of their authenticator app, a recovery code, or (step-up of an operator without a second factor) the password. */
export type FactorMode = 'totp' | 'recovery-code' | 'password';

const LABELS: Record<FactorMode, string> = { totp: 'Authentication code', 'recovery-code': 'Recovery code', password: 'Password' };
const SWITCHES: Record<FactorMode, string> = {
  totp: 'Use your authenticator app instead',
  'recovery-code': 'Use a recovery code instead',
  password: 'Use your password instead',
};

/** The body of a second factor as typed: a TOTP code without its spaces, a recovery code trimmed, a password as it is. */
export function factorOf(mode: FactorMode, value: string): StepUpFactor {
  switch (mode) {
    case 'totp':
      return { totp: value.replace(/\s/g, '') };
    case 'recovery-code':
      return { recoveryCode: value.trim() };
    case 'password':
      return { password: value };
  }
}

export function factorReady(mode: FactorMode, value: string): boolean {
  return mode === 'totp' ? /^\d{6}$/.test(value.replace(/\s/g, '')) : value.trim() !== '';
}

/** The field for the factor being typed. */
export function FactorField({ mode, value, onChange, describedBy }: { mode: FactorMode; value: string; onChange: (value: string) => void; describedBy?: string }) {
  return (
    <label className="field">
      <span>{LABELS[mode]}</span>
      {mode === 'password' ? (
        <input type="password" name="password" autoComplete="current-password" required value={value} onChange={(event) => onChange(event.target.value)} autoFocus aria-describedby={describedBy} />
      ) : (
        <input
          key={mode}
          name={mode}
          inputMode={mode === 'totp' ? 'numeric' : 'text'}
          autoComplete={mode === 'totp' ? 'one-time-code' : 'off'}
          spellCheck={false}
          autoCapitalize="off"
          maxLength={mode === 'totp' ? 9 : 64}
          placeholder={mode === 'totp' ? '6 digits' : 'xxxxx-xxxxx'}
          required
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoFocus
          aria-describedby={describedBy}
        />
      )}
    </label>
  );
}

/** Links to the other ways the operator has to give a second factor. */
export function FactorSwitches({ modes, mode, onMode }: { modes: readonly FactorMode[]; mode: FactorMode | null; onMode: (mode: FactorMode) => void }) {
  const others = modes.filter((item) => item !== mode);
  if (others.length === 0) {
    return null;
  }
  return (
    <p className="factor-switches">
      {others.map((other) => (
        <button key={other} type="button" className="link-button" onClick={() => onMode(other)}>
          {SWITCHES[other]}
        </button>
      ))}
    </p>
  );
}
