import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useCreateGame } from '../api/queries';
import { Dialog } from '../ui/dialog';
import { useToast } from '../ui/toasts';
import { NAME_MAX, nameProblem } from './game-name';

/** "Create game": a name (checked as it is typed), then the new game's page. */
export function CreateGameDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const createGame = useCreateGame();
  const navigate = useNavigate();
  const notify = useToast();
  const hintId = useId();
  const errorId = useId();
  const problem = nameProblem(name, true);
  const shownProblem = touched ? problem : null;
  const serverError = createGame.error instanceof ApiError ? createGame.error.message : createGame.error ? 'The game could not be created.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) {
      return;
    }
    createGame.mutate(name.trim(), {
      onSuccess: (game) => {
        notify(`Game “${game.name}” created`);
        onClose();
        void navigate(`/games/${game.id}`);
      },
    });
  };

  return (
    <Dialog title="Create game" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <label className="field">
          <span>Game name</span>
          <input
            name="name"
            value={name}
            autoFocus
            required
            aria-invalid={shownProblem ? true : undefined}
            aria-describedby={`${hintId}${shownProblem ? ` ${errorId}` : ''}`}
            onChange={(event) => {
              setName(event.target.value);
              if (event.target.value.trim() !== '') {
                setTouched(true);
              }
            }}
            onBlur={() => setTouched(true)}
          />
          <span id={hintId} className="hint">
            {[...name.trim()].length}/{NAME_MAX} characters
          </span>
        </label>
        {shownProblem ? (
          <p id={errorId} className="field-error">
            {shownProblem}
          </p>
        ) : null}
        {serverError ? (
          <p className="form-error" role="alert">
            {serverError}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={createGame.isPending}>
            {createGame.isPending ? 'Creating…' : 'Create game'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
