import type { AuditEntryView } from '@game-wallet/contracts/views';
import { useApiKeys, useAudit, useSession } from '../api/queries';
import { useCursorPages } from '../ui/cursor-pages';
import { DateTime } from '../ui/date-time';
import { describeAction, describeDetails, splitReference } from '../ui/format';
import { Pager } from '../ui/pager';
import { QueryView, SectionHeader } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { useCurrentGame } from './game-context';
import { POLICY_ACTIONS, POLICY_FIELD_ORDER, POLICY_UPDATED, RULE_CHANGE_FIELDS, describePolicyChange, describeRuleChange, holdsRules, policyChanges } from './policy-changes';
import { SIGNING_CHANGE_FIELDS, describeSigningChange } from './request-signing-words';

/** An actor or target in words: the signed-in operator as "You", the game and its keys by name (while they exist). */
function Reference({ value, operatorId, names }: { value: string; operatorId?: string; names: Map<string, string> }) {
  const { kind, id } = splitReference(value);
  if (value === `operator:${operatorId}`) {
    return <span>You</span>;
  }
  const name = names.get(value);
  return (
    <span title={value}>
      {kind} {name ? <span className="strong">“{name}”</span> : <code className="small">{id.slice(0, 8)}…</code>}
    </span>
  );
}

/** Lines of text, one an item; a line that wraps continues indented. */
function Lines({ lines }: { lines: string[] }) {
  return (
    <ul className="changes">
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  );
}

/** A change of an API key's request signing: the setting, or the key added or removed (its fingerprint), then the rest. */
function SigningChange({ change, details }: { change: string; details: Record<string, unknown> }) {
  const rest = Object.fromEntries(Object.entries(details).filter(([field]) => !SIGNING_CHANGE_FIELDS.includes(field)));
  return (
    <span title={JSON.stringify(details)}>
      <span className="strong">{change}</span>
      {Object.keys(rest).length > 0 ? ` · ${describeDetails(rest)}` : null}
    </span>
  );
}

/**
 * What an entry recorded, as text: a change of the policy's rules (or of its draft) as the rules added, removed or
 * changed, each in its sentence; a change of a policy of the first shape as the fields it changed, from what to what;
 * then the rest of its details. A change of an API key's request signing in words. Any other entry as `name: value`
 * pairs.
 */
function Details({ entry }: { entry: AuditEntryView }) {
  const signingChange = entry.action === 'api_key.updated' ? describeSigningChange(entry.details) : null;
  if (signingChange !== null) {
    return <SigningChange change={signingChange} details={entry.details} />;
  }
  if (!POLICY_ACTIONS.includes(entry.action)) {
    return <span title={JSON.stringify(entry.details)}>{describeDetails(entry.details)}</span>;
  }
  if (holdsRules(entry.details) || entry.action !== POLICY_UPDATED) {
    const rest = Object.fromEntries(Object.entries(entry.details).filter(([field]) => !RULE_CHANGE_FIELDS.includes(field)));
    return (
      <div className="cell-stack">
        <Lines lines={describeRuleChange(entry.action, entry.details)} />
        {Object.keys(rest).length > 0 && <span>{describeDetails(rest)}</span>}
      </div>
    );
  }
  const { before, after, ...rest } = entry.details;
  const changes = policyChanges(before, after, POLICY_FIELD_ORDER);
  return (
    <div className="cell-stack">
      {changes.length === 0 ? <span>No field changed</span> : <Lines lines={changes.map(describePolicyChange)} />}
      {Object.keys(rest).length > 0 && <span>{describeDetails(rest)}</span>}
    </div>
  );
}

/** The game's audit trail, newest first: who did what, to what, when. */
export function AuditTab() {
  const game = useCurrentGame();
  const pages = useCursorPages();
  const audit = useAudit(game.id, pages.cursor);
  const session = useSession();
  const keys = useApiKeys(game.id);
  const names = new Map([[`game:${game.id}`, game.name], ...(keys.data ?? []).map((key): [string, string] => [`api-key:${key.id}`, key.name])]);
  const operatorId = session.data?.operator.id;
  const row = (entry: AuditEntryView) => (
    <tr key={entry.id}>
      <td data-label="Time">
        <DateTime value={entry.at} />
      </td>
      <td data-label="Actor">
        <Reference value={entry.actor} operatorId={operatorId} names={names} />
      </td>
      <td data-label="Action" className="strong nowrap">
        {describeAction(entry.action, entry.details)}
      </td>
      <td data-label="Target">
        <Reference value={entry.target} operatorId={operatorId} names={names} />
      </td>
      <td data-label="Details" className={POLICY_ACTIONS.includes(entry.action) ? 'muted small wrap stacked' : 'muted small wrap'}>
        <Details entry={entry} />
      </td>
    </tr>
  );
  return (
    <div className="stack">
      <SectionHeader title="Audit">Every change to the game, its keys and its signing policy, and every signature its wallets made, newest first.</SectionHeader>
      <QueryView query={audit} loading="Loading the audit trail…" isEmpty={(page) => page.items.length === 0} empty={<EmptyState title="Nothing recorded yet" />}>
        {(page) => (
          <div className="card">
            <table className="table">
              <caption className="visually-hidden">Audit trail of {game.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>{page.items.map(row)}</tbody>
            </table>
            <Pager label="Audit pages" page={pages.page} hasPrevious={pages.hasPrevious} nextCursor={page.nextCursor} onPrevious={pages.previous} onNext={pages.next} />
          </div>
        )}
      </QueryView>
    </div>
  );
}
