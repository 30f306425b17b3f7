// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only: nothing of contracts reaches the emitted JavaScript
import type { CreatedWebhookEndpointView, Page, WebhookDeliveryStatus, WebhookDeliveryView, WebhookEndpointInput, WebhookEndpointView } from '@game-wallet/contracts';
import { HttpClient, RequestOptions } from './http-client';

const segment = encodeURIComponent;

/** A game's webhook endpoints, their secrets and their delivery log. */
export interface ConsoleWebhooksApi {
  list(gameId: string, options?: RequestOptions): Promise<{ items: WebhookEndpointView[] }>;
  /** The answer's `secret` (`whsec_…`) signs every delivery: it is shown this once. */
  create(gameId: string, input: WebhookEndpointInput, options?: RequestOptions): Promise<CreatedWebhookEndpointView>;
  update(gameId: string, endpointId: string, change: Partial<WebhookEndpointInput>, options?: RequestOptions): Promise<WebhookEndpointView>;
  delete(gameId: string, endpointId: string, options?: RequestOptions): Promise<void>;
  /** A new secret (shown this once); the old one keeps signing beside it for `overlapSeconds` (default a day). */
  rotateSecret(gameId: string, endpointId: string, rotation?: { overlapSeconds?: number }, options?: RequestOptions): Promise<CreatedWebhookEndpointView>;
  /** A `webhook.test` event to this endpoint alone. */
  sendTest(gameId: string, endpointId: string, options?: RequestOptions): Promise<WebhookDeliveryView>;
  /** A page of the endpoint's deliveries, newest first. */
  deliveries(gameId: string, endpointId: string, page?: { limit?: number; cursor?: string; status?: WebhookDeliveryStatus }, options?: RequestOptions): Promise<Page<WebhookDeliveryView>>;
  redeliver(gameId: string, endpointId: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDeliveryView>;
  /** Every failed delivery of events received since `since`, again. */
  redeliverFailed(gameId: string, endpointId: string, since: string | Date, options?: RequestOptions): Promise<{ scheduled: number }>;
}

export class ConsoleWebhooksResource implements ConsoleWebhooksApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  list(gameId: string, options?: RequestOptions): Promise<{ items: WebhookEndpointView[] }> {
    return this.http.request({ method: 'GET', url: this.url(gameId) }, options);
  }

  create(gameId: string, input: WebhookEndpointInput, options?: RequestOptions): Promise<CreatedWebhookEndpointView> {
    return this.http.request({ method: 'POST', url: this.url(gameId), body: input }, options);
  }

  update(gameId: string, endpointId: string, change: Partial<WebhookEndpointInput>, options?: RequestOptions): Promise<WebhookEndpointView> {
    return this.http.request({ method: 'PATCH', url: this.url(gameId, `/${segment(endpointId)}`), body: change }, options);
  }

  delete(gameId: string, endpointId: string, options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', url: this.url(gameId, `/${segment(endpointId)}`) }, options);
  }

  rotateSecret(gameId: string, endpointId: string, rotation: { overlapSeconds?: number } = {}, options?: RequestOptions): Promise<CreatedWebhookEndpointView> {
    return this.http.request({ method: 'POST', url: this.url(gameId, `/${segment(endpointId)}/rotate-secret`), body: rotation }, options);
  }

  sendTest(gameId: string, endpointId: string, options?: RequestOptions): Promise<WebhookDeliveryView> {
    return this.http.request({ method: 'POST', url: this.url(gameId, `/${segment(endpointId)}/test`) }, options);
  }

  deliveries(gameId: string, endpointId: string, page: { limit?: number; cursor?: string; status?: WebhookDeliveryStatus } = {}, options?: RequestOptions): Promise<Page<WebhookDeliveryView>> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(page)) {
      if (value !== undefined) {
        params.set(name, String(value));
      }
    }
    const search = params.toString();
    return this.http.request({ method: 'GET', url: `${this.url(gameId, `/${segment(endpointId)}/deliveries`)}${search === '' ? '' : `?${search}`}` }, options);
  }

  redeliver(gameId: string, endpointId: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDeliveryView> {
    return this.http.request({ method: 'POST', url: this.url(gameId, `/${segment(endpointId)}/deliveries/${segment(deliveryId)}/redeliver`) }, options);
  }

  redeliverFailed(gameId: string, endpointId: string, since: string | Date, options?: RequestOptions): Promise<{ scheduled: number }> {
    const body = { since: since instanceof Date ? since.toISOString() : since };
    return this.http.request({ method: 'POST', url: this.url(gameId, `/${segment(endpointId)}/redeliver`), body }, options);
  }

  private url(gameId: string, path = ''): string {
    return `${this.baseUrl}/v1/console/games/${segment(gameId)}/webhooks${path}`;
  }
}
