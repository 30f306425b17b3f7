import type { PolicyEvaluationView } from '@game-wallet/contracts/views';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../api/client';
import { useApiKeys, useEvaluatePolicy } from '../api/queries';
import { Fact } from '../ui/facts';
import { formatJson } from '../ui/format';
import { FormError, RadioGroup, SelectField, TextField } from '../ui/form';
import { CHAINS } from './chains';
import { type TestRequestForm, evaluationOfForm, examplePayload, payloadFormat } from './evaluation-request';
import { useCurrentGame } from './game-context';
import { OPERATIONS } from './rule-editor';

const CREDENTIALS = [
  { value: 'apiKey', label: 'API key (game server)' },
  { value: 'profile', label: 'Profile JWT (game client)' },
] as const;

/** What the policy decided for the request tested, and what it read of it. */
export function EvaluationResult({ result }: { result: PolicyEvaluationView }) {
  const accepted = result.decision === 'accept';
  return (
    <div className={`evaluation ${accepted ? 'accepted' : 'rejected'}`}>
      <p className="evaluation-decision">
        <span className={`badge ${accepted ? 'accept' : 'reject'}`}>{accepted ? 'Accepted' : 'Refused'}</span>{' '}
        {result.ruleId === null ? 'no rule accepted' : <>by rule <code>{result.ruleId}</code></>}
      </p>
      <dl className="facts">
        <Fact label="Reason">{result.reason}</Fact>
        {result.observed === undefined ? null : <Fact label="Observed">{result.observed}</Fact>}
        <Fact label="Policy">{result.version === null ? 'the draft' : `version ${result.version}`}</Fact>
      </dl>
      <details className="json-details">
        <summary>What the rules read of the request</summary>
        <pre className="json">{formatJson(result.facts)}</pre>
      </details>
    </div>
  );
}

/**
 * "Test a request": a signing request as a game would send it (operation, chain, credential, payload) and what the
 * active policy or the draft decides for it, without signing or counting anything.
 */
export function PolicyTestPanel({ hasDraft }: { hasDraft: boolean }) {
  const game = useCurrentGame();
  const evaluate = useEvaluatePolicy(game.id);
  const keys = useApiKeys(game.id);
  const [form, setForm] = useState<TestRequestForm>({ policy: 'active', operation: 'message', chain: 'evm', kind: 'apiKey', apiKeyId: '', walletId: '', payload: '' });
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const set =
    <K extends keyof TestRequestForm>(key: K) =>
    (value: TestRequestForm[K]) =>
      setForm((current) => ({ ...current, [key]: value }));
  const chain = form.operation === 'typed-data' ? 'evm' : form.chain;
  const format = payloadFormat(form.operation, chain);
  const example = examplePayload(form.operation, chain);
  const policy = hasDraft ? form.policy : 'active';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const request = evaluationOfForm({ ...form, policy });
    if (!request.ok) {
      setError(request.problems.join(' '));
      evaluate.reset();
      return;
    }
    evaluate.mutate(request.value, { onError: (failure) => setError(failure instanceof ApiError ? failure.message : 'Not tested: the platform could not be reached') });
  };

  return (
    <section className="card panel" aria-labelledby={titleId}>
      <h3 id={titleId}>Test a request</h3>
      <p className="muted small">What the policy decides for a signing request, without signing it or counting it toward a velocity limit.</p>
      <form className="test-request" onSubmit={submit} noValidate>
        <div className="test-fields">
          <RadioGroup
            legend="Policy"
            value={policy}
            options={[
              { value: 'active', label: 'Active' },
              { value: 'draft', label: hasDraft ? 'Draft' : 'Draft (none)', disabled: !hasDraft },
            ]}
            onChange={set('policy')}
          />
          <SelectField label="Operation" value={form.operation} options={OPERATIONS} onChange={set('operation')} />
          <SelectField label="Chain" value={chain} options={CHAINS.map((item) => ({ value: item.id, label: item.label, disabled: form.operation === 'typed-data' && item.id !== 'evm' }))} onChange={set('chain')} />
          <SelectField label="Credential" value={form.kind} options={CREDENTIALS} onChange={set('kind')} />
          {form.kind === 'apiKey' ? (
            <SelectField
              label="API key"
              hint="For rules that name keys."
              value={form.apiKeyId}
              options={[{ value: '', label: 'None given' }, ...(keys.data ?? []).map((key) => ({ value: key.id, label: `${key.name} (${key.id.slice(0, 8)}…)` }))]}
              onChange={set('apiKeyId')}
            />
          ) : null}
          <TextField label="Wallet id" hint="Optional: whose velocity counts are read. Empty: velocity is not read." value={form.walletId} onChange={set('walletId')} />
        </div>
        <TextField label={format.label} hint={format.hint} value={form.payload} onChange={set('payload')} multiline rows={6} />
        <div className="form-actions">
          {example === undefined ? null : (
            <button type="button" className="button ghost" onClick={() => set('payload')(example)}>
              Fill in an example
            </button>
          )}
          <button type="submit" className="button primary" disabled={evaluate.isPending}>
            {evaluate.isPending ? 'Testing…' : 'Test'}
          </button>
        </div>
      </form>
      <FormError message={error} />
      <div aria-live="polite">{evaluate.data !== undefined && error === null ? <EvaluationResult result={evaluate.data} /> : null}</div>
    </section>
  );
}
