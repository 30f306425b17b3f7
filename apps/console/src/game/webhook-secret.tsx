import { type ReactNode, useId } from 'react';
import type { CreatedWebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { CopyButton } from '../ui/copy-button';
import { endpointName } from './webhook-form';

/** An endpoint's signing secret (`whsec_…`) as it is shown, once: a warning, the secret to select, a copy button. */
export function WebhookSecret({ endpoint, children }: { endpoint: CreatedWebhookEndpointView; children: ReactNode }) {
  const warningId = useId();
  return (
    <>
      <p id={warningId} className="callout warning">
        {children}
      </p>
      <label className="field">
        <span>Signing secret for “{endpointName(endpoint)}”</span>
        <span className="secret-row">
          <textarea
            className="secret"
            readOnly
            rows={1}
            spellCheck={false}
            value={endpoint.secret}
            aria-describedby={warningId}
            onFocus={(event) => event.target.select()}
          />
          <CopyButton value={endpoint.secret} label="signing secret" />
        </span>
      </label>
    </>
  );
}
