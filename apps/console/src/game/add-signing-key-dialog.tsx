import { type FormEvent, useId, useState } from 'react';
import type { ApiKeyView } from '@game-wallet/contracts/views';
import { ApiError } from '../api/client';
import { useAddSigningKey } from '../api/request-signing';
import { nameProblem } from '../games/game-name';
import { NameField } from '../games/name-field';
import { Dialog } from '../ui/dialog';
import { DialogActions, FieldError, FormError } from '../ui/form';
import { useToast } from '../ui/toasts';
import { algorithmLabel } from './request-signing-words';
import { publicKeyInput } from './signing-key-form';

/**
 * "Add signing key": an optional name and the public key, pasted as a PEM or a JWK. Problems with the text show once
 * the field was left or the form sent; what the platform refuses shows in its own words.
 */
export function AddSigningKeyDialog({ gameId, apiKey, onClose }: { gameId: string; apiKey: ApiKeyView; onClose: () => void }) {
  const add = useAddSigningKey(gameId);
  const notify = useToast();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [shown, setShown] = useState(false);
  const keyId = useId();
  const hintId = useId();
  const errorId = useId();
  const input = publicKeyInput(text);
  const keyProblem = shown ? (input.problem ?? null) : null;
  const problem = nameProblem(name, false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (problem !== null || input.problem !== undefined) {
      return;
    }
    const trimmed = name.trim();
    add.mutate(
      { keyId: apiKey.id, input: { ...(trimmed === '' ? {} : { name: trimmed }), publicKey: input.publicKey } },
      {
        onSuccess: (added) => {
          notify(`Signing key “${added.name}” (${algorithmLabel(added.algorithm)}) added to “${apiKey.name}”`);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog title="Add signing key" onClose={onClose} description={`A public key that signs requests with “${apiKey.name}”. Its private key stays on your game server.`}>
      <form onSubmit={submit} noValidate>
        <NameField
          label={
            <>
              Name <span className="muted">(optional)</span>
            </>
          }
          value={name}
          problem={problem}
          placeholder="e.g. production game server"
          onChange={setName}
        />
        <div className="field">
          <label htmlFor={keyId}>Public key</label>
          <textarea
            id={keyId}
            rows={6}
            spellCheck={false}
            autoComplete="off"
            value={text}
            placeholder={'-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----'}
            aria-invalid={keyProblem ? true : undefined}
            aria-describedby={keyProblem ? `${hintId} ${errorId}` : hintId}
            onChange={(event) => setText(event.target.value)}
            onBlur={() => setShown((already) => already || text.trim() !== '')}
          />
          <span id={hintId} className="muted small">
            An Ed25519 or P-256 public key: a PEM, or a JWK such as <code>{'{"kty": "OKP", "crv": "Ed25519", "x": "…"}'}</code>.
          </span>
        </div>
        <FieldError id={errorId} message={keyProblem} />
        <FormError message={add.error ? (add.error instanceof ApiError ? add.error.message : 'The signing key could not be added.') : null} />
        <DialogActions onCancel={onClose} pending={add.isPending} disabled={problem !== null}>
          Add signing key
        </DialogActions>
      </form>
    </Dialog>
  );
}
