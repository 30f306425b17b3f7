import { type FormEvent, useId, useRef, useState } from 'react';
import type { ApiKeyView, SignedRequests, SigningKeyView } from '@game-wallet/contracts/views';
import { ApiError } from '../api/client';
import { useSetSignedRequests } from '../api/request-signing';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { CopyFact, Fact } from '../ui/facts';
import { FormError } from '../ui/form';
import { useToast } from '../ui/toasts';
import { AddSigningKeyDialog } from './add-signing-key-dialog';
import { RemoveSigningKeyDialog } from './remove-signing-key-dialog';
import { SIGNED_REQUESTS_CHOICES, SIGNING_KEY_LIMIT, algorithmLabel, signedRequestsBadge, signedRequestsLabel } from './request-signing-words';

/** The key's badge in the list when some of its requests must be signed; nothing when none must. */
export function SignedRequestsBadge({ setting }: { setting: SignedRequests }) {
  const badge = signedRequestsBadge(setting);
  return badge === null ? null : <span className="badge signed">{badge}</span>;
}

/**
 * Which requests must be signed, one line on each choice. Requiring any needs a signing key, so without one only
 * "Off" is offered. Saved with "Save"; `manage` false: read-only.
 */
function SignedRequestsForm({ gameId, apiKey, manage }: { gameId: string; apiKey: ApiKeyView; manage: boolean }) {
  const save = useSetSignedRequests(gameId);
  const notify = useToast();
  const [choice, setChoice] = useState<SignedRequests>(apiKey.signedRequests);
  const name = useId();
  const noKeyId = useId();
  const noKey = apiKey.signingKeys.length === 0;
  const explained = noKey && manage;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { keyId: apiKey.id, signedRequests: choice },
      { onSuccess: (updated) => notify(`Signed requests of “${updated.name}”: ${signedRequestsLabel(updated.signedRequests).toLowerCase()}`) },
    );
  };
  return (
    <form className="subsection" onSubmit={submit} noValidate aria-label="Signed requests">
      <fieldset className="choices" aria-describedby={explained ? noKeyId : undefined}>
        <legend>
          <h3>Signed requests</h3>
        </legend>
        {SIGNED_REQUESTS_CHOICES.map((option) => (
          <label key={option.value} className="check">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={choice === option.value}
              disabled={!manage || (noKey && option.value !== 'off')}
              onChange={() => setChoice(option.value)}
            />
            <span>
              {option.label}
              <span className="hint block">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {explained ? (
        <p id={noKeyId} className="muted small">
          Requiring signatures needs a signing key: add one below first.
        </p>
      ) : null}
      <FormError message={save.error ? (save.error instanceof ApiError ? save.error.message : 'The setting was not changed.') : null} />
      {manage ? (
        <div>
          <button type="submit" className="button primary" disabled={save.isPending || choice === apiKey.signedRequests}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      ) : null}
    </form>
  );
}

/** One registered key: its name and algorithm, fingerprint (the `keyid` its signatures name) to copy, and dates. */
function SigningKeyItem({ signingKey, onRemove }: { signingKey: SigningKeyView; onRemove?: () => void }) {
  const titleId = useId();
  return (
    <li className="signing-key" aria-labelledby={titleId}>
      <div className="signing-key-head">
        <h4 id={titleId} className="wrap">
          {signingKey.name}
        </h4>
        <span className="badge off">{algorithmLabel(signingKey.algorithm)}</span>
        {onRemove ? (
          <button type="button" className="button danger-ghost compact" aria-label={`Remove ${signingKey.name}`} onClick={onRemove}>
            Remove
          </button>
        ) : null}
      </div>
      <dl className="facts">
        <CopyFact label="Fingerprint" value={signingKey.id} copyLabel={`fingerprint of ${signingKey.name}`} />
        <Fact label="Added">
          <DateTime value={signingKey.createdAt} />
        </Fact>
        <Fact label="Last used">
          <DateTime value={signingKey.lastUsedAt} fallback="Never" />
        </Fact>
      </dl>
    </li>
  );
}

/**
 * An API key's request signing (RFC 9421 HTTP Message Signatures): which of its requests must be signed, and the
 * public keys that sign them, added and removed by those who may (`apiKeys.signing`); read-only for the others.
 */
export function RequestSigningDrawer({ gameId, apiKey, manage, onClose }: { gameId: string; apiKey: ApiKeyView; manage: boolean; onClose: () => void }) {
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SigningKeyView | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const full = apiKey.signingKeys.length >= SIGNING_KEY_LIMIT;
  return (
    <Dialog title={`Request signing: “${apiKey.name}”`} onClose={onClose} variant="drawer">
      <div className="drawer-content">
        <p className="muted">
          Your game server signs each request with a private key that never leaves it; the platform checks the signature with the public key registered here. A leaked API
          key alone then cannot sign.
        </p>
        <SignedRequestsForm key={apiKey.signedRequests} gameId={gameId} apiKey={apiKey} manage={manage} />
        <section className="subsection" aria-label="Signing keys">
          <div className="signing-keys-head">
            <h3>
              Signing keys{' '}
              <span className="muted small">
                ({apiKey.signingKeys.length} of {SIGNING_KEY_LIMIT})
              </span>
            </h3>
            {manage ? (
              <button ref={addButton} type="button" className="button compact" disabled={full} onClick={() => setAdding(true)}>
                Add signing key
              </button>
            ) : null}
          </div>
          {full && manage ? <p className="muted small">Remove a key before adding another.</p> : null}
          {apiKey.signingKeys.length === 0 ? (
            <p className="muted">No signing key yet.</p>
          ) : (
            <ul className="signing-keys" aria-label={`Signing keys of ${apiKey.name}`}>
              {apiKey.signingKeys.map((signingKey) => (
                <SigningKeyItem key={signingKey.id} signingKey={signingKey} onRemove={manage ? () => setRemoving(signingKey) : undefined} />
              ))}
            </ul>
          )}
        </section>
      </div>
      {adding ? <AddSigningKeyDialog gameId={gameId} apiKey={apiKey} onClose={() => setAdding(false)} /> : null}
      {removing ? (
        <RemoveSigningKeyDialog gameId={gameId} apiKey={apiKey} signingKey={removing} onClose={() => setRemoving(null)} returnFocusTo={() => addButton.current} />
      ) : null}
    </Dialog>
  );
}
