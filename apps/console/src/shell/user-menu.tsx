import { useCallback, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../api/queries';
import { useToast } from '../ui/toasts';
import { useDismiss } from '../ui/use-dismiss';

/**
 * The header's user menu: who is signed in, their Account page, and sign-out (a disclosure, like the game switcher:
 * Esc or a click elsewhere closes it).
 */
export function UserMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const notify = useToast();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, root, button);

  const leave = () =>
    signOut.mutate(undefined, {
      onSuccess: () => void navigate('/sign-in', { replace: true }),
      onError: () => notify('Sign-out failed; try again', 'error'),
    });
  const operator = session.data?.operator;
  const name = operator ? operator.displayName || operator.email : '';
  return (
    <div className="user-menu" ref={root}>
      <button ref={button} type="button" className="user-menu-button" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((value) => !value)}>
        <span className="avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        {/* The name is hidden on a phone; the button's name keeps what it shows (axe: label-content-name-mismatch). */}
        <span className="visually-hidden">Account menu: </span>
        <span className="operator">{name}</span>
        <span aria-hidden="true" className="chevron">
          ▾
        </span>
      </button>
      <div id={menuId} className="user-menu-list" hidden={!open}>
        <p className="user-menu-who">
          Signed in as
          <span className="strong wrap">{operator?.email}</span>
        </p>
        <ul>
          <li>
            <Link to="/account" onClick={() => setOpen(false)}>
              Account
            </Link>
          </li>
          <li>
            <button type="button" onClick={leave} disabled={signOut.isPending}>
              Sign out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
