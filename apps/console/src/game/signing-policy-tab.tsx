import type { SigningOperation } from '@game-wallet/contracts/views';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../api/client';
import { useSaveSigningPolicy, useSigningPolicy } from '../api/queries';
import { FormError } from '../ui/form';
import { QueryView, SectionHeader } from '../ui/query-view';
import { useToast } from '../ui/toasts';
import { useCurrentGame } from './game-context';
import { OPERATIONS, type PolicyForm, formOfPolicy, policyOfForm } from './signing-policy-form';

function TextField({
  label,
  hint,
  value,
  onChange,
  multiline = false,
  numeric = false,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  /** a whole number: phones offer their digit keyboard */
  numeric?: boolean;
}) {
  const id = useId();
  const hintId = useId();
  // The label names the field and the hint describes it: the hint is outside the label, so it is not read as part
  // of the field's name.
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} rows={3} spellCheck={false} value={value} aria-describedby={hintId} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input id={id} spellCheck={false} inputMode={numeric ? 'numeric' : undefined} value={value} aria-describedby={hintId} onChange={(event) => onChange(event.target.value)} />
      )}
      <span id={hintId} className="muted small">
        {hint}
      </span>
    </div>
  );
}

function Operations({ legend, value, onChange }: { legend: string; value: SigningOperation[]; onChange: (value: SigningOperation[]) => void }) {
  return (
    <fieldset className="card">
      <legend>{legend}</legend>
      {OPERATIONS.map((operation) => (
        <label key={operation.value} className="check">
          <input
            type="checkbox"
            checked={value.includes(operation.value)}
            onChange={(event) => onChange(event.target.checked ? [...value, operation.value] : value.filter((item) => item !== operation.value))}
          />
          <span>{operation.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

function PolicyEditor({ initial }: { initial: PolicyForm }) {
  const game = useCurrentGame();
  const save = useSaveSigningPolicy(game.id);
  const notify = useToast();
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const transfersHintId = useId();
  const set = <K extends keyof PolicyForm>(key: K) => (value: PolicyForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    save.mutate(policyOfForm(form), {
      onSuccess: (saved) => {
        setForm(formOfPolicy(saved));
        notify('Signing policy saved: every wallet service applies it within a second');
      },
      onError: (failure) => setError(failure instanceof ApiError ? failure.message : 'Not saved: the platform could not be reached'),
    });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Operations legend="API keys (game servers) may sign" value={form.apiKey} onChange={set('apiKey')} />
      <Operations legend="Profile JWTs (game clients) may sign" value={form.profile} onChange={set('profile')} />
      <fieldset className="card">
        <legend>EVM</legend>
        <TextField label="Allowed chain ids" hint="Decimal, one a line or separated by commas. Empty: any chain." value={form.evmChainIds} onChange={set('evmChainIds')} />
        <TextField label="Most wei per transaction" hint="The value a transaction moves, in wei. Empty: no limit." value={form.evmMaxValueWei} onChange={set('evmMaxValueWei')} numeric />
        <TextField
          label="Most fees per transaction, in wei"
          hint="Gas limit × the highest fee per gas it offers (maxFeePerGas or gasPrice). Empty: no limit."
          value={form.evmMaxFeeWei}
          onChange={set('evmMaxFeeWei')}
          numeric
        />
        <TextField
          label="Allowed addresses to call or pay"
          hint="0x addresses, one a line: what a transaction may call or pay, and the verifyingContract typed data must name (set, typed data without one and contract creation are refused). Empty: any."
          value={form.evmContracts}
          onChange={set('evmContracts')}
          multiline
        />
        <TextField
          label="Allowed typed-data primary types"
          hint="EIP-712 primaryType names typed data may have, one a line (such as Order or Permit). Empty: any."
          value={form.evmTypedDataPrimaryTypes}
          onChange={set('evmTypedDataPrimaryTypes')}
          multiline
        />
      </fieldset>
      <fieldset className="card">
        <legend>Solana</legend>
        <TextField label="Allowed programs" hint="Base58 program ids, one a line; every instruction must use one. A listed program runs with the wallet's signature and can move its lamports itself, so list only programs you trust. Empty: any." value={form.solPrograms} onChange={set('solPrograms')} multiline />
        <TextField
          label="Most lamports per transaction"
          hint="System Transfer, TransferWithSeed, CreateAccount and CreateAccountWithSeed, summed. With any Solana limit set, other System instructions are refused. Empty: no limit."
          value={form.solMaxLamports}
          onChange={set('solMaxLamports')}
          numeric
        />
        <TextField
          label="Most priority fee per transaction, in micro-lamports"
          hint="ComputeBudget's unit price (micro-lamports per unit) × its unit limit. Empty: no limit."
          value={form.solMaxPriorityMicroLamports}
          onChange={set('solMaxPriorityMicroLamports')}
          numeric
        />
      </fieldset>
      <fieldset className="card">
        <legend>Sui</legend>
        <TextField
          label="Allowed Move packages"
          hint="0x package ids a MoveCall may call, one a line; set, Publish and Upgrade are refused. A listed package can move the coins it is handed, so list only packages you trust. Empty: any."
          value={form.suiPackages}
          onChange={set('suiPackages')}
          multiline
        />
        <TextField label="Most gas budget per transaction, in MIST" hint="The transaction's gas budget (1 SUI is 10⁹ MIST). Empty: no limit." value={form.suiMaxGasBudget} onChange={set('suiMaxGasBudget')} numeric />
        <label className="check">
          <input type="checkbox" checked={form.suiAllowTransfers} aria-describedby={transfersHintId} onChange={(event) => set('suiAllowTransfers')(event.target.checked)} />
          <span>Allow transferring, splitting and merging coins</span>
        </label>
        <p id={transfersHintId} className="muted small check-hint">
          Off: TransferObjects, SplitCoins, MergeCoins, and Move calls that can move coins or objects are refused (the Sui framework's modules other than its read-only ones, such as 0x2::transfer, 0x2::pay, 0x2::coin or 0x2::kiosk; the bridge; DeepBook).
        </p>
      </fieldset>
      <FormError message={error} />
      <div>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save policy'}
        </button>
      </div>
    </form>
  );
}

/** What this game's wallets may sign, and for whom: the game's signing policy. */
export function SigningPolicyTab() {
  const game = useCurrentGame();
  const policy = useSigningPolicy(game.id);
  return (
    <div className="stack">
      <SectionHeader title="Signing policy">
        What API keys and game clients may have this game's wallets sign. A refused request answers 403 POLICY_DENIED and is recorded in the audit trail.
      </SectionHeader>
      <QueryView query={policy} loading="Loading the signing policy…" isEmpty={() => false} empty={null}>
        {(data) => <PolicyEditor initial={formOfPolicy(data)} />}
      </QueryView>
    </div>
  );
}
