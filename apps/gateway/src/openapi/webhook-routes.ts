import { deliveriesQuery, createWebhookBody, redeliverFailedBody, rotateSecretBody, updateWebhookBody } from '../console/webhook-input';
import type { ApiRoute } from './api-routes';

const BASE = '/v1/console/games/{gameId}/webhooks';

function webhookRoute(method: ApiRoute['method'], path: string, operationId: string, summary: string, route: Omit<ApiRoute, 'method' | 'path' | 'port' | 'tag' | 'operationId' | 'summary' | 'access'>): ApiRoute {
  return { method, path: `${BASE}${path}`, port: 'base', tag: 'Webhooks', operationId, summary, access: 'console', ...route };
}

/** A game's webhook endpoints and their delivery log (the events themselves: the document's `webhooks` section). */
export const WEBHOOK_ROUTES: ApiRoute[] = [
  webhookRoute('get', '', 'listWebhookEndpoints', "A game's webhook endpoints", {
    permission: 'webhooks.read',
    description: 'Every endpoint of the game (at most 20), oldest first; secrets are never shown again. An endpoint the platform disabled (every attempt failed for a day) says why (`disabledReason`) and when.',
    responses: [{ status: 200, description: 'The endpoints', schema: 'WebhookEndpointList' }],
    errors: ['GAME_NOT_FOUND'],
  }),
  webhookRoute('post', '', 'createWebhookEndpoint', 'Add a webhook endpoint', {
    permission: 'webhooks.manage',
    description:
      'Events of the game\'s changes made from now on are POSTed to `url` as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). `eventTypes`: the types it receives, or `["*"]`. In production `url` must be `https` and resolve to public addresses only (checked at each delivery, after DNS). The answer holds the secret (`secret`, `whsec_…`) that signs every delivery: the only time it is shown. Recorded as `webhook_endpoint.created`.',
    body: createWebhookBody,
    responses: [{ status: 201, description: 'The endpoint with its secret', schema: 'CreatedWebhookEndpointView' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_LIMIT'],
  }),
  webhookRoute('patch', '/{endpointId}', 'updateWebhookEndpoint', 'Change a webhook endpoint', {
    permission: 'webhooks.manage',
    description: 'Any of `url`, `eventTypes`, `description`, `enabled`. Turning off fails its pending deliveries; turning on again an endpoint the platform disabled starts afresh (its reason is cleared). Recorded as `webhook_endpoint.updated`.',
    body: updateWebhookBody,
    responses: [{ status: 200, description: 'The endpoint', schema: 'WebhookEndpointView' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
    idempotent: true,
  }),
  webhookRoute('delete', '/{endpointId}', 'deleteWebhookEndpoint', 'Delete a webhook endpoint', {
    permission: 'webhooks.manage',
    description: 'With its delivery log; nothing more is sent to it. Recorded as `webhook_endpoint.deleted`.',
    responses: [{ status: 204, description: 'Deleted' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  webhookRoute('post', '/{endpointId}/rotate-secret', 'rotateWebhookSecret', "Rotate an endpoint's secret", {
    permission: 'webhooks.manage',
    description:
      'A new secret (in the answer: the only time it is shown). The old one keeps signing beside it for `overlapSeconds` (default a day, at most 7 days, 0: not at all): each delivery then carries two signatures in `webhook-signature`, so a receiver holding either verifies it. Recorded as `webhook_endpoint.secret_rotated`.',
    body: rotateSecretBody,
    responses: [{ status: 200, description: 'The endpoint with its new secret', schema: 'CreatedWebhookEndpointView' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  webhookRoute('post', '/{endpointId}/test', 'sendWebhookTestEvent', 'Send a test event to an endpoint', {
    permission: 'webhooks.deliver',
    description: 'A `webhook.test` event for this endpoint alone, delivered (and retried) as any other.',
    responses: [{ status: 202, description: 'Its delivery, pending', schema: 'WebhookDeliveryView' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  webhookRoute('get', '/{endpointId}/deliveries', 'listWebhookDeliveries', "An endpoint's delivery log, newest first", {
    permission: 'webhooks.read',
    description: 'Each event\'s delivery: `status` (`pending`, `succeeded`, `failed`), attempts, the next try, and the last attempt\'s HTTP status, first bytes of the answer and error. `status=` shows one state only. Kept 30 days.',
    query: deliveriesQuery,
    responses: [{ status: 200, description: 'A page of deliveries', schema: 'WebhookDeliveryPage' }],
    errors: ['INVALID_QUERY', 'GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  webhookRoute('post', '/{endpointId}/deliveries/{deliveryId}/redeliver', 'redeliverWebhook', 'Deliver one event again', {
    permission: 'webhooks.deliver',
    description: 'At once, with a fresh retry schedule, whatever its state (the same `webhook-id`: receivers deduplicate by it).',
    responses: [{ status: 202, description: 'The delivery, pending', schema: 'WebhookDeliveryView' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
  }),
  webhookRoute('post', '/{endpointId}/redeliver', 'redeliverFailedWebhooks', 'Deliver every failed event since a time again', {
    permission: 'webhooks.deliver',
    description: 'Every `failed` delivery of events received at or after `since` (ISO 8601), at most 10,000, again at once with a fresh retry schedule.',
    body: redeliverFailedBody,
    responses: [{ status: 202, description: 'How many were scheduled', schema: 'ScheduledRedeliveriesView' }],
    errors: ['GAME_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
];
