import { type ReactNode, useId } from 'react';
import type { CreatedWebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { SecretField } from '../ui/copy-button';
import { endpointName } from './webhook-form';

/** An endpoint's signing secret (`whsec_…`) as it is shown, once: a warning, the secret to select, a copy button. */
export function WebhookSecret({ endpoint, children }: { endpoint: CreatedWebhookEndpointView; children: ReactNode }) {
  const warningId = useId();
  return (
    <>
      <p id={warningId} className="callout warning">
        {children}
      </p>
      <SecretField label={`Signing secret for “${endpointName(endpoint)}”`} value={endpoint.secret} copyLabel="signing secret" warningId={warningId} />
    </>
  );
}
