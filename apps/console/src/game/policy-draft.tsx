import type { PolicyDecision, PolicyDifferenceView, PolicyRule, SigningPolicyDraftView, SigningPolicyView } from '@game-wallet/contracts/views';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ApiError } from '../api/client';
import { useActivateDraft, useDeleteDraft, useDraftDifferences, useReplayDraft, useSaveDraft, useSession } from '../api/queries';
import { useCursorPages } from '../ui/cursor-pages';
import { DateTime } from '../ui/date-time';
import { describeActor } from '../ui/format';
import { FormError } from '../ui/form';
import { Pager } from '../ui/pager';
import { QueryView } from '../ui/query-view';
import { useToast } from '../ui/toasts';
import { useCurrentGame } from './game-context';
import { useCan } from '../session/permissions';
import { RuleList, RuleSentences } from './rule-list';

/** An API failure in words; a stale version (412) with a way to read the policy again. */
export function policyError(error: unknown, reload: () => void): ReactNode {
  if (error instanceof ApiError && error.code === 'PRECONDITION_FAILED') {
    return (
      <>
        <p>Someone saved another version of the policy since you opened it, so nothing was changed. Reload it to see theirs (your changes here are dropped), then make yours again.</p>
        <button type="button" className="button" onClick={reload}>
          Reload the policy
        </button>
      </>
    );
  }
  return error instanceof ApiError ? error.message : 'Not saved: the platform could not be reached';
}

function Decision({ decision }: { decision: Pick<PolicyDecision, 'decision' | 'ruleId'> }) {
  return (
    <span className="decision">
      <span className={`badge ${decision.decision === 'accept' ? 'accept' : 'reject'}`}>{decision.decision === 'accept' ? 'Accept' : 'Reject'}</span>{' '}
      {decision.ruleId === null ? <span className="muted">no rule accepted</span> : <code>{decision.ruleId}</code>}
    </span>
  );
}

const DIFFERENCE_COLUMNS = ['Attempt', 'Active', 'Draft'] as const;

/** Signing attempts the draft decides otherwise than the active policy. */
export function DifferencesTable({ items, caption }: { items: PolicyDifferenceView[]; caption: string }) {
  return (
    <table className="table differences">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {DIFFERENCE_COLUMNS.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.attemptId}>
            <td data-label="Attempt">
              <div className="cell-stack">
                <DateTime value={item.at} />
                <span className="muted small">
                  {item.operation} on {item.chain} · wallet <code title={item.walletId}>{item.walletId.slice(0, 8)}…</code>
                </span>
              </div>
            </td>
            <td data-label="Active">
              <Decision decision={item.active} />
            </td>
            <td data-label="Draft">
              <Decision decision={item.draft} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Differences() {
  const game = useCurrentGame();
  const pages = useCursorPages();
  const differences = useDraftDifferences(game.id, pages.cursor, true);
  const titleId = useId();
  return (
    <section className="subsection" aria-labelledby={titleId}>
      <h4 id={titleId}>Differences</h4>
      <p className="muted small">Signing attempts since the draft was saved where it decided otherwise than the active policy, newest first.</p>
      <QueryView query={differences} loading="Loading the differences…" isEmpty={(page) => page.items.length === 0} empty={<p className="muted">None yet.</p>}>
        {(page) => (
          <>
            <DifferencesTable items={page.items} caption="Signing attempts the draft decides otherwise" />
            <Pager label="Difference pages" page={pages.page} hasPrevious={pages.hasPrevious} nextCursor={page.nextCursor} onPrevious={pages.previous} onNext={pages.next} />
          </>
        )}
      </QueryView>
    </section>
  );
}

/** The draft over past signing attempts: how many decisions it changes, each way, and which. */
function Replay() {
  const game = useCurrentGame();
  const replay = useReplayDraft(game.id);
  const [since, setSince] = useState('');
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const date = since.trim() === '' ? undefined : new Date(since);
    if (date !== undefined && Number.isNaN(date.getTime())) {
      setError('Since: not a date');
      return;
    }
    replay.mutate(date?.toISOString(), { onError: (failure) => setError(failure instanceof ApiError ? failure.message : 'Not replayed: the platform could not be reached') });
  };
  const result = replay.data;
  return (
    <section className="subsection" aria-labelledby={titleId}>
      <h4 id={titleId}>Replay</h4>
      <p className="muted small">The draft over past signing attempts (the last 100,000 at most): what it would have decided.</p>
      <form className="replay-form" onSubmit={submit} noValidate>
        <DateField value={since} onChange={setSince} />
        <button type="submit" className="button" disabled={replay.isPending}>
          {replay.isPending ? 'Replaying…' : 'Replay'}
        </button>
      </form>
      <FormError message={error} />
      <div aria-live="polite">
        {result === undefined || error !== null ? null : (
          <div className="replay-result">
            <dl className="counts" aria-label="Replay result">
              {(
                [
                  ['Evaluated', result.evaluated],
                  ['Changed', result.changed],
                  ['Newly rejected', result.newlyRejected],
                  ['Newly accepted', result.newlyAccepted],
                  ['Undecidable', result.undecidable],
                ] as const
              ).map(([label, count]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{count.toLocaleString()}</dd>
                </div>
              ))}
            </dl>
            {result.undecidable > 0 ? <p className="muted small">Undecidable: the draft reads something attempts do not keep (a message pattern reads the message, which is never stored).</p> : null}
            {result.changes.length > 0 ? <DifferencesTable items={result.changes} caption="Attempts whose decision the draft changes" /> : null}
          </div>
        )}
      </div>
    </section>
  );
}

function DateField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Since</label>
      <input id={id} type="datetime-local" value={value} aria-describedby={hintId} onChange={(event) => onChange(event.target.value)} />
      <span id={hintId} className="muted small">
        Optional, in your time zone. Empty: the latest attempts.
      </span>
    </div>
  );
}

/** "Are you sure" in place, for a step that cannot be undone from here. */
function Confirm({ children, confirmLabel, danger = false, pending, onConfirm, onCancel }: { children: ReactNode; confirmLabel: string; danger?: boolean; pending: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div className="confirm" role="group" aria-label={confirmLabel}>
      <p>{children}</p>
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        {/* The step confirmed gets focus: Enter does it, Tab back cancels. */}
        <button type="button" className={`button ${danger ? 'danger' : 'primary'}`} disabled={pending} onClick={onConfirm} ref={(button) => button?.focus()}>
          {pending ? 'Working…' : confirmLabel}
        </button>
      </div>
    </div>
  );
}

function DraftRules({ policy, draft, reloadPolicy }: { policy: SigningPolicyView; draft: SigningPolicyDraftView; reloadPolicy: () => void }) {
  const game = useCurrentGame();
  const save = useSaveDraft(game.id);
  const remove = useDeleteDraft(game.id);
  const activate = useActivateDraft(game.id);
  const session = useSession();
  const notify = useToast();
  const canDraft = useCan('policy.draft', game.id);
  const canActivate = useCan('policy.write', game.id);
  const [confirming, setConfirming] = useState<'activate' | 'delete' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const failed = (failure: unknown) => {
    setConfirming(null);
    setError(failure);
  };
  const saveRules = async (rules: PolicyRule[]) => {
    await save.mutateAsync(rules);
    notify('Draft saved: signing attempts are evaluated against it from now on');
  };
  // Promises, not mutate's callbacks: once the draft is gone this component is too, and the toast still shows.
  const run = (step: 'activate' | 'delete') => {
    setError(null);
    if (step === 'activate') {
      activate.mutateAsync(policy.version).then((active) => notify(`Draft activated as version ${active.version}: every wallet service applies it within a second`), failed);
    } else {
      remove.mutateAsync().then(() => notify('Draft deleted'), failed);
    }
  };
  return (
    <>
      <p className="muted small policy-meta">
        Written against version {draft.baseVersion} · saved <DateTime value={draft.updatedAt} /> by {describeActor(draft.updatedBy, session.data?.operator.id)}. Every signing attempt is also
        evaluated against it, deciding nothing.
      </p>
      {draft.baseVersion === policy.version ? null : (
        <p className="callout warning">The active policy has changed since this draft was written (now version {policy.version}): compare them before activating.</p>
      )}
      {canDraft ? (
        <RuleList key={draft.updatedAt} label="Draft rules" saved={draft.rules} saveLabel="Save draft" onSave={saveRules} describeError={(failure) => policyError(failure, reloadPolicy)} />
      ) : (
        <RuleSentences rules={draft.rules} label="Draft rules" />
      )}
      {confirming === 'activate' ? (
        <Confirm confirmLabel="Activate draft" pending={activate.isPending} onConfirm={() => run('activate')} onCancel={() => setConfirming(null)}>
          The saved draft ({draft.rules.length} rules) becomes version {policy.version + 1} and decides every signing request within a second.
        </Confirm>
      ) : confirming === 'delete' ? (
        <Confirm confirmLabel="Delete draft" danger pending={remove.isPending} onConfirm={() => run('delete')} onCancel={() => setConfirming(null)}>
          The draft and its differences are deleted; the active policy stays as it is.
        </Confirm>
      ) : canDraft || canActivate ? (
        <div className="form-actions">
          {canDraft ? (
            <button type="button" className="button danger-ghost" onClick={() => setConfirming('delete')}>
              Delete draft
            </button>
          ) : null}
          {canActivate ? (
            <button type="button" className="button" onClick={() => setConfirming('activate')}>
              Activate draft
            </button>
          ) : null}
        </div>
      ) : null}
      {error === null ? null : (
        <div className="form-error" role="alert">
          {policyError(error, reloadPolicy)}
        </div>
      )}
    </>
  );
}

/**
 * The draft beside the active policy: start it from the active rules, edit it with the same editor, see the attempts
 * it decides otherwise and replay it over past ones, then activate or delete it.
 */
export function DraftColumn({ policy, draft, reloadPolicy }: { policy: SigningPolicyView; draft: SigningPolicyDraftView | null; reloadPolicy: () => void }) {
  const game = useCurrentGame();
  const start = useSaveDraft(game.id);
  const canDraft = useCan('policy.draft', game.id);
  const [error, setError] = useState<string | null>(null);
  if (draft === null && !canDraft) {
    return <p className="muted">No draft: a draft is a policy tried beside the active one, deciding nothing, until an admin activates it.</p>;
  }
  if (draft === null) {
    return (
      <>
        <p className="muted">
          A draft is a policy tried beside the active one: every signing attempt is evaluated against it too, and where it decides otherwise the attempt is listed here. Replay it over past attempts, then activate it.
        </p>
        <div>
          <button
            type="button"
            className="button primary"
            disabled={start.isPending}
            onClick={() => {
              setError(null);
              start.mutate(policy.rules, { onError: (failure) => setError(failure instanceof ApiError ? failure.message : 'Not started: the platform could not be reached') });
            }}
          >
            {start.isPending ? 'Starting…' : 'Start a draft from the active rules'}
          </button>
        </div>
        <FormError message={error} />
      </>
    );
  }
  return (
    <>
      <DraftRules policy={policy} draft={draft} reloadPolicy={reloadPolicy} />
      <Replay />
      <Differences />
    </>
  );
}
