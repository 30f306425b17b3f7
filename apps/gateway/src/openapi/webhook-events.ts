import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '@game-wallet/contracts';

type Json = Record<string, unknown>;

/** Each event type: the schema of its `data` and what it tells. */
const EVENTS: Record<WebhookEventType, { data: string; description: string }> = {
  'player.created': { data: 'PlayerCreatedData', description: 'A player was created, with its profile and wallet (core, in the transaction that completes it).' },
  'wallet.signed': { data: 'WalletSigningData', description: 'A wallet signed a message, a transaction or typed data; the SHA-256 of what was signed, never the bytes.' },
  'wallet.signing_denied': { data: 'WalletSigningData', description: 'The signing policy refused a signing request (nothing was signed).' },
  'signing_policy.updated': { data: 'SigningPolicyChangedData', description: 'A new version of the signing policy is in force (the rules: `GET …/signing-policy`).' },
  'signing_policy.draft_updated': { data: 'SigningPolicyChangedData', description: 'The draft signing policy was saved.' },
  'signing_policy.draft_deleted': { data: 'SigningPolicyChangedData', description: 'The draft signing policy was discarded.' },
  'api_key.created': { data: 'ApiKeyChangedData', description: 'An API key was created (its id and name; never the secret).' },
  'api_key.updated': {
    data: 'ApiKeyChangedData',
    description:
      'An API key was activated or deactivated (`active`), its signed-request setting changed (`signedRequests`), or a request-signing key was registered (`signingKeyAdded`, with `algorithm`) or removed (`signingKeyRemoved`).',
  },
  'api_key.deleted': { data: 'ApiKeyChangedData', description: 'An API key was deleted (`revokeTokens`: its profile JWTs were revoked too).' },
  'profile.tokens_revoked': { data: 'ProfileTokensRevokedData', description: "Every JWT of a profile issued before `revokedBefore` is refused from now on." },
  'webhook_endpoint.created': { data: 'WebhookEndpointChangedData', description: 'A webhook endpoint was added to the game.' },
  'webhook_endpoint.updated': { data: 'WebhookEndpointChangedData', description: 'A webhook endpoint was changed.' },
  'webhook_endpoint.deleted': { data: 'WebhookEndpointChangedData', description: 'A webhook endpoint was deleted.' },
  'webhook_endpoint.disabled': { data: 'WebhookEndpointChangedData', description: 'The platform disabled an endpoint whose every attempt failed for a day (`reason`).' },
  'webhook.test': { data: 'WebhookTestData', description: 'Sent to one endpoint by "send test event" in the console; changes nothing.' },
};

const HEADERS: Json[] = [
  { name: 'webhook-id', in: 'header', required: true, description: "The event's id (UUIDv7), the same on every attempt and redelivery: deduplicate by it.", schema: { type: 'string', format: 'uuid' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'When this attempt was signed, in seconds since the epoch: refuse one too far from now (5 minutes).', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the endpoint\'s secret; during a secret rotation two of them, space-separated. Verify with the `standardwebhooks` package (or `svix`).',
    schema: { type: 'string' },
  },
];

/** The schemas the events name (roots of the document's components). */
export const WEBHOOK_DATA_SCHEMAS = [...new Set(Object.values(EVENTS).map((event) => event.data))];

/**
 * The OpenAPI 3.1 `webhooks` section: each event type a game's endpoint receives, as the POST it gets (Standard
 * Webhooks headers; the body `{id, type, timestamp, gameId, data}`), and how its answer is read.
 */
export function webhooksSection(): Json {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replace(/[^a-z]+/g, '_')}`,
          tags: ['Webhooks'],
          summary: type,
          description: `${EVENTS[type].description} Delivered at least once; a 2xx answer within 10 s ends it, anything else (a redirect too) is retried on the schedule (README "Webhooks").`,
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'type', 'timestamp', 'gameId', 'data'],
                  additionalProperties: false,
                  properties: {
                    id: { type: 'string', format: 'uuid', description: 'UUIDv7, also the `webhook-id` header' },
                    type: { const: type },
                    timestamp: { type: 'string', format: 'date-time', description: 'when the change was made' },
                    gameId: { type: 'string', format: 'uuid' },
                    data: { $ref: `#/components/schemas/${EVENTS[type].data}` },
                  },
                },
              },
            },
          },
          responses: { '2XX': { description: 'Received' } },
          security: [],
        },
      },
    ]),
  );
}
