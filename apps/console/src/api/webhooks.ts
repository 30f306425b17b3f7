import { type QueryClient, keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Page } from '@game-wallet/contracts/views';
import type {
  CreatedWebhookEndpointView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEndpointInput,
  WebhookEndpointView,
} from '@game-wallet/contracts/webhooks';
import { apiRequest, queryString } from './client';
import { queryKeys } from './queries';

/** A game's webhook endpoints, their secrets and delivery log. */

const webhooksPath = (gameId: string, rest = '') => `/games/${encodeURIComponent(gameId)}/webhooks${rest}`;
const endpointPath = (gameId: string, endpointId: string, rest = '') => webhooksPath(gameId, `/${encodeURIComponent(endpointId)}${rest}`);

/** Rows per page of an endpoint's delivery log. */
export const DELIVERIES_PAGE_SIZE = 10;
/** How often a delivery log with a delivery still pending is asked again. */
const PENDING_REFRESH_MS = 2000;

export function useWebhooks(gameId: string) {
  return useQuery({ queryKey: queryKeys.webhooks(gameId), queryFn: async () => (await apiRequest<{ items: WebhookEndpointView[] }>('GET', webhooksPath(gameId))).items });
}

/** Strips the secret from a new or rotated endpoint: only the dialog that shows it once may hold it, never a cache. */
export function withoutWebhookSecret({ secret: _secret, ...view }: CreatedWebhookEndpointView): WebhookEndpointView {
  return view;
}

function putEndpoint(client: QueryClient, gameId: string, endpoint: WebhookEndpointView): void {
  client.setQueryData<WebhookEndpointView[]>(queryKeys.webhooks(gameId), (endpoints) =>
    endpoints?.some((item) => item.id === endpoint.id) ? endpoints.map((item) => (item.id === endpoint.id ? endpoint : item)) : [...(endpoints ?? []), endpoint],
  );
}

/**
 * Adds an endpoint. Not a cached mutation on purpose: the answer (with its secret) goes only to the caller, and the
 * cached list gets the endpoint without it.
 */
export function useCreateWebhook(gameId: string): (input: WebhookEndpointInput) => Promise<CreatedWebhookEndpointView> {
  const client = useQueryClient();
  return useCallback(
    async (input: WebhookEndpointInput) => {
      const created = await apiRequest<CreatedWebhookEndpointView>('POST', webhooksPath(gameId), input);
      putEndpoint(client, gameId, withoutWebhookSecret(created));
      return created;
    },
    [client, gameId],
  );
}

/** Changes an endpoint (any of its fields); `enabled: true` on one the platform disabled also clears why. */
export function useUpdateWebhook(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, change }: { endpointId: string; change: Partial<WebhookEndpointInput> }) => apiRequest<WebhookEndpointView>('PATCH', endpointPath(gameId, endpointId), change),
    onSuccess: (updated) => putEndpoint(client, gameId, updated),
  });
}

/** Deletes an endpoint, and its delivery log with it. */
export function useDeleteWebhook(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => apiRequest<void>('DELETE', endpointPath(gameId, endpointId)),
    onSuccess: (_result, endpointId) => {
      client.setQueryData<WebhookEndpointView[]>(queryKeys.webhooks(gameId), (endpoints) => endpoints?.filter((item) => item.id !== endpointId));
      client.removeQueries({ queryKey: ['webhook-deliveries', gameId, endpointId] });
    },
  });
}

/**
 * A new secret for an endpoint; the old one keeps signing beside it for `overlapSeconds`. Not a cached mutation: the
 * new secret goes only to the caller.
 */
export function useRotateWebhookSecret(gameId: string): (endpointId: string, overlapSeconds: number) => Promise<CreatedWebhookEndpointView> {
  const client = useQueryClient();
  return useCallback(
    async (endpointId: string, overlapSeconds: number) => {
      const rotated = await apiRequest<CreatedWebhookEndpointView>('POST', endpointPath(gameId, endpointId, '/rotate-secret'), { overlapSeconds });
      putEndpoint(client, gameId, withoutWebhookSecret(rotated));
      return rotated;
    },
    [client, gameId],
  );
}

/** An endpoint's deliveries, newest first, a page at a time; asked again every 2 s while one of them is pending. */
export function useWebhookDeliveries(gameId: string, endpointId: string, status: WebhookDeliveryStatus | '', cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(gameId, endpointId, status, cursor),
    queryFn: () =>
      apiRequest<Page<WebhookDeliveryView>>('GET', endpointPath(gameId, endpointId, `/deliveries${queryString({ limit: DELIVERIES_PAGE_SIZE, cursor, status })}`)),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false),
  });
}

/** What follows a delivery scheduled: the endpoint's log is asked again (its first page shows it pending). */
function afterScheduled(client: QueryClient, gameId: string, endpointId: string): Promise<void> {
  return client.invalidateQueries({ queryKey: ['webhook-deliveries', gameId, endpointId] });
}

/** Sends a `webhook.test` event to one endpoint. */
export function useSendTestEvent(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => apiRequest<WebhookDeliveryView>('POST', endpointPath(gameId, endpointId, '/test')),
    onSuccess: (_delivery, endpointId) => afterScheduled(client, gameId, endpointId),
  });
}

/** One delivery again, at once, whatever its state. */
export function useRedeliver(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      apiRequest<WebhookDeliveryView>('POST', endpointPath(gameId, endpointId, `/deliveries/${encodeURIComponent(deliveryId)}/redeliver`)),
    onSuccess: (_delivery, { endpointId }) => afterScheduled(client, gameId, endpointId),
  });
}

/** Every failed delivery of events received since `since` (ISO 8601) again. */
export function useRedeliverFailed(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, since }: { endpointId: string; since: string }) => apiRequest<{ scheduled: number }>('POST', endpointPath(gameId, endpointId, '/redeliver'), { since }),
    onSuccess: (_answer, { endpointId }) => afterScheduled(client, gameId, endpointId),
  });
}
