import { useId } from 'react';
import { CopyButton } from '../ui/copy-button';

/** Saves `text` as a file the browser downloads (made here: nothing is sent anywhere). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Ten recovery codes, shown this once, with Copy and Download. They live only in the state of the dialog that shows
 * them: closing it forgets them.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const warningId = useId();
  const text = `Game Wallet console recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <>
      <p id={warningId} className="callout warning">
        Keep these codes somewhere safe, apart from your phone: each signs you in once if you lose your authenticator app. <strong>They will not be shown again.</strong>
      </p>
      <ol className="recovery-codes" aria-label="Recovery codes" aria-describedby={warningId}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions">
        <CopyButton value={codes.join('\n')} label="recovery codes" />
        <button type="button" className="button" onClick={() => download('game-wallet-recovery-codes.txt', text)}>
          Download
        </button>
      </div>
    </>
  );
}
