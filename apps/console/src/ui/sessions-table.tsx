import type { ConsoleSessionEntryView } from '@game-wallet/contracts/console-access';
import { DateTime } from './date-time';
import { formatDateTime } from './format';
import { describeUserAgent } from './user-agent';

/**
 * Console sessions (the operator's own, or another operator's on the Team page): when each began and was last seen,
 * from which address and browser, and a button that ends it. The session this page runs in is marked and kept.
 */
export function SessionsTable({
  sessions,
  caption,
  onEnd,
  ending,
}: {
  sessions: ConsoleSessionEntryView[];
  caption: string;
  /** absent: the sessions are listed only */
  onEnd?: (session: ConsoleSessionEntryView) => void;
  ending?: string | null;
}) {
  return (
    <table className="table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Browser</th>
          <th scope="col">Address</th>
          <th scope="col">Started</th>
          <th scope="col">Last seen</th>
          {onEnd ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => {
          const browser = describeUserAgent(session.userAgent);
          return (
            <tr key={session.id}>
              <td data-label="Browser">
                <span className="cell-stack">
                  <span className="strong" title={session.userAgent ?? undefined}>
                    {browser}
                  </span>
                  {session.current ? <span className="badge on">This session</span> : null}
                </span>
              </td>
              <td data-label="Address">{session.ip === null ? <span className="muted">—</span> : <code>{session.ip}</code>}</td>
              <td data-label="Started">
                <DateTime value={session.createdAt} />
              </td>
              <td data-label="Last seen">
                <DateTime value={session.lastSeenAt} />
              </td>
              {onEnd ? (
                <td className="actions">
                  {session.current ? null : (
                    <button type="button" className="button danger-ghost" aria-label={`End the session in ${browser} started ${formatDateTime(session.createdAt)}`} disabled={ending === session.id} onClick={() => onEnd(session)}>
                      {ending === session.id ? 'Ending…' : 'End'}
                    </button>
                  )}
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
