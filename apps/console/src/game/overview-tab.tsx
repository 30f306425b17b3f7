import { useEndpoints } from '../api/queries';
import { CopyButton } from '../ui/copy-button';
import { CopyFact } from '../ui/facts';
import { useCurrentGame } from './game-context';

/** Shell words in single quotes, safe to paste. */
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export function playerCreateExample(coreUrl: string): string {
  return [
    `curl -X POST ${quote(`${coreUrl}/v1/player/create`)} \\`,
    `  -H 'x-api-key: <API_KEY>' -H 'content-type: application/json' \\`,
    `  -d '{"uniqueId":"player-123","userData":{"username":"ada"}}'`,
  ].join('\n');
}

export function authenticateExample(baseUrl: string): string {
  return [
    `curl -X POST ${quote(`${baseUrl}/v1/profile/<PROFILE_ID>/authenticate`)} \\`,
    `  -H 'x-api-key: <API_KEY>' -H 'content-type: application/json' \\`,
    `  -d '{"duration":3600}'`,
  ].join('\n');
}

function Example({ title, text, note }: { title: string; text: string; note: string }) {
  return (
    <div className="example">
      <div className="example-header">
        <h3>{title}</h3>
        <CopyButton value={text} label={`${title} example`} />
      </div>
      {/* Focusable: a keyboard user can scroll a long line sideways. */}
      <pre tabIndex={0} role="region" aria-label={`${title}: command`}>
        <code>{text}</code>
      </pre>
      <p className="muted">{note}</p>
    </div>
  );
}

/** The game's id and the platform's addresses, with the two calls a game server makes first. */
export function OverviewTab() {
  const game = useCurrentGame();
  const endpoints = useEndpoints();
  const baseUrl = endpoints.data?.baseUrl ?? window.location.origin;
  const coreUrl = endpoints.data?.coreUrl ?? '…';
  return (
    <div className="stack">
      <div className="card">
        <dl className="facts">
          <CopyFact label="Game id" value={game.id} copyLabel="game id" />
          <CopyFact label="Base URL" value={baseUrl} copyLabel="base URL" note="profiles, wallets, health" />
          <CopyFact label="Core URL" value={coreUrl} copyLabel="core URL" note="players" />
        </dl>
      </div>
      <Example
        title="Create a player"
        text={playerCreateExample(coreUrl)}
        note="Creates the player with a profile and a wallet on evm, sol and sui; repeating it returns the same player."
      />
      <Example
        title="Authenticate a profile"
        text={authenticateExample(baseUrl)}
        note="Returns a JWT (here for one hour) that the game client uses for this player's profile and wallet."
      />
      <div className="card">
        <h3>API reference</h3>
        <p>
          Every route, its parameters, answers and error codes:{' '}
          <a href={`${baseUrl}/docs`} target="_blank" rel="noreferrer">
            base URL reference
          </a>{' '}
          and{' '}
          <a href={`${coreUrl}/docs`} target="_blank" rel="noreferrer">
            core URL reference
          </a>{' '}
          (OpenAPI 3.1 at <code>/v1/openapi.json</code> on each). Game backends in TypeScript can use the <code>@game-wallet/sdk</code> package.
        </p>
      </div>
    </div>
  );
}
