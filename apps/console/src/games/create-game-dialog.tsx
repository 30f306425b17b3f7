import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useCreateGame } from '../api/queries';
import { Dialog } from '../ui/dialog';
import { DialogActions, FormError } from '../ui/form';
import { useToast } from '../ui/toasts';
import { nameProblem } from './game-name';
import { NameField } from './name-field';

/** "Create game": a name (checked as it is typed), then the new game's page. */
export function CreateGameDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const createGame = useCreateGame();
  const navigate = useNavigate();
  const notify = useToast();
  const problem = nameProblem(name, true);
  const refused = createGame.error instanceof ApiError ? createGame.error.message : createGame.error ? 'The game could not be created.' : null;

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
        <NameField
          label="Game name"
          value={name}
          problem={touched ? problem : null}
          onChange={(value) => {
            setName(value);
            setTouched((was) => was || value.trim() !== '');
          }}
          onBlur={() => setTouched(true)}
        />
        <FormError message={refused} />
        <DialogActions onCancel={onClose} pending={createGame.isPending}>
          Create game
        </DialogActions>
      </form>
    </Dialog>
  );
}
