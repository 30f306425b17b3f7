import { type ReactNode, useEffect, useId, useRef } from 'react';

interface DialogProps {
  title: string;
  /** Called on Esc, the close button, or a button of the dialog that cancels. */
  onClose: () => void;
  children: ReactNode;
  /** `drawer`: slides in from the side, for details. */
  variant?: 'dialog' | 'drawer';
  /** where focus goes on close when the control that opened the dialog is gone (e.g. a deleted row) */
  returnFocusTo?: () => HTMLElement | null;
  description?: string;
}

/**
 * A modal dialog on the native `<dialog>`: focus moves into it and is trapped there, Esc closes it, and on close focus
 * returns to the control that opened it. Render it only while open: what it holds goes when it closes.
 */
export function Dialog({ title, onClose, children, variant = 'dialog', returnFocusTo, description }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const returnFocus = useRef(returnFocusTo);
  returnFocus.current = returnFocusTo;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) {
      // jsdom (unit tests) has no showModal.
      if (typeof dialog.showModal === 'function') {
        dialog.showModal();
      } else {
        dialog.setAttribute('open', '');
      }
    }
    return () => {
      if (dialog?.open && typeof dialog.close === 'function') {
        dialog.close();
      }
      const target = opener?.isConnected ? opener : returnFocus.current?.();
      target?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={variant}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {description ? (
        <p id={descriptionId} className="dialog-description">
          {description}
        </p>
      ) : null}
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}
