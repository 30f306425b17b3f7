import type { PolicyRule, SigningPolicyVersionView, SigningPolicyView } from '@game-wallet/contracts/views';
import { useId, useState } from 'react';
import { useSaveSigningPolicy, useSession, useSigningPolicy, useSigningPolicyDraft, useSigningPolicyVersions } from '../api/queries';
import { DateTime } from '../ui/date-time';
import { describeActor } from '../ui/format';
import { QueryView, SectionHeader } from '../ui/query-view';
import { ErrorState, Loading } from '../ui/states';
import { useToast } from '../ui/toasts';
import { useCurrentGame } from './game-context';
import { DraftColumn, policyError } from './policy-draft';
import { useCan } from '../session/permissions';
import { PolicyTestPanel } from './policy-test-panel';
import { RuleList, RuleSentences } from './rule-list';

const ORIGINS: Record<SigningPolicyVersionView['origin'], string> = {
  put: 'saved',
  'put-v1': 'saved in the first policy shape',
  migrated: 'converted from the first policy shape',
  draft: 'activated from a draft',
};

/** Every version the policy had, newest first, each with its rules; read once opened. */
function Versions() {
  const game = useCurrentGame();
  const [open, setOpen] = useState(false);
  const versions = useSigningPolicyVersions(game.id, open);
  const session = useSession();
  const items = versions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <details className="versions" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Versions</summary>
      {!open ? null : versions.isPending ? (
        <Loading label="Loading the versions…" />
      ) : versions.isError ? (
        <ErrorState error={versions.error} retry={() => void versions.refetch()} />
      ) : items.length === 0 ? (
        <p className="muted">None saved yet: the game has the default policy.</p>
      ) : (
        <ul className="version-list">
          {items.map((version) => (
            <li key={version.version}>
              <details>
                <summary>
                  Version {version.version} · <DateTime value={version.createdAt} /> · {ORIGINS[version.origin]} by {describeActor(version.createdBy, session.data?.operator.id)} ·{' '}
                  {version.rules.length === 1 ? '1 rule' : `${version.rules.length} rules`}
                </summary>
                <RuleSentences rules={version.rules} label={`Rules of version ${version.version}`} />
              </details>
            </li>
          ))}
        </ul>
      )}
      {versions.hasNextPage ? (
        <button type="button" className="button" disabled={versions.isFetchingNextPage} onClick={() => void versions.fetchNextPage()}>
          {versions.isFetchingNextPage ? 'Loading…' : 'Older versions'}
        </button>
      ) : null}
    </details>
  );
}

function ActivePolicy({ policy, reloadPolicy }: { policy: SigningPolicyView; reloadPolicy: () => void }) {
  const game = useCurrentGame();
  const save = useSaveSigningPolicy(game.id);
  const canWrite = useCan('policy.write', game.id);
  const session = useSession();
  const notify = useToast();
  const saveRules = async (rules: PolicyRule[]) => {
    const saved = await save.mutateAsync({ rules, version: policy.version });
    notify(`Signing policy saved as version ${saved.version}: every wallet service applies it within a second`);
  };
  return (
    <>
      <p className="muted small policy-meta">
        {policy.version === 0 ? (
          'Version 0: the default policy, never changed.'
        ) : (
          <>
            Version {policy.version} · changed <DateTime value={policy.updatedAt} /> by {describeActor(policy.updatedBy, session.data?.operator.id)}.
          </>
        )}
      </p>
      {canWrite ? (
        <RuleList key={policy.version} label="Active rules" saved={policy.rules} saveLabel="Save policy" onSave={saveRules} describeError={(error) => policyError(error, reloadPolicy)} />
      ) : (
        <RuleSentences rules={policy.rules} label="Active rules" />
      )}
      <Versions />
    </>
  );
}

/** The active policy and the draft side by side (stacked on a phone), then "Test a request". */
function PolicyColumns({ policy, reloadPolicy }: { policy: SigningPolicyView; reloadPolicy: () => void }) {
  const game = useCurrentGame();
  const draft = useSigningPolicyDraft(game.id);
  const activeId = useId();
  const draftId = useId();
  return (
    <>
      <div className="policy-columns">
        <section className="card panel" aria-labelledby={activeId}>
          <h3 id={activeId}>Active policy</h3>
          <ActivePolicy policy={policy} reloadPolicy={reloadPolicy} />
        </section>
        <section className="card panel" aria-labelledby={draftId}>
          <h3 id={draftId}>Draft</h3>
          <QueryView query={draft} loading="Loading the draft…" isEmpty={() => false} empty={null}>
            {(data) => <DraftColumn policy={policy} draft={data} reloadPolicy={reloadPolicy} />}
          </QueryView>
        </section>
      </div>
      <PolicyTestPanel hasDraft={draft.data !== undefined && draft.data !== null} />
    </>
  );
}

/** What this game's wallets may sign, and for whom: the game's signing policy, its draft, and a dry run. */
export function SigningPolicyTab() {
  const game = useCurrentGame();
  const policy = useSigningPolicy(game.id);
  const reloadPolicy = () => void policy.refetch();
  return (
    <div className="stack">
      <SectionHeader title="Signing policy">
        Ordered rules for what API keys and game clients may have this game's wallets sign: the first rule that matches a request decides, and a request no rule accepts is refused (403
        POLICY_DENIED, recorded in the audit trail).
      </SectionHeader>
      <QueryView query={policy} loading="Loading the signing policy…" isEmpty={() => false} empty={null}>
        {(data) => <PolicyColumns policy={data} reloadPolicy={reloadPolicy} />}
      </QueryView>
    </div>
  );
}
