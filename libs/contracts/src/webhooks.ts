/**
 * Events and webhooks: what a game's webhook endpoints receive (Standard Webhooks) and how the console manages them.
 * Event types follow one rule, the audit trail's: `<resource>.<what happened>`, lower snake case on both sides
 * (`wallet.signing_denied`). Each service writes an event in the same database transaction as the change it tells of.
 */

/** Every event type a game's endpoint can subscribe to, in the catalogue's order (README "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'player.created',
  'wallet.signed',
  'wallet.signing_denied',
  'signing_policy.updated',
  'signing_policy.draft_updated',
  'signing_policy.draft_deleted',
  'api_key.created',
  'api_key.updated',
  'api_key.deleted',
  'profile.tokens_revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.disabled',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Names the audit trail used before the rule, still shown and still accepted where an event type is given: a stored
 * audit row keeps its name (its hash covers it), and an endpoint subscribed by an old name gets the new one.
 */
export const RENAMED_EVENT_TYPES: Readonly<Record<string, WebhookEventType>> = {
  'wallet.signing-denied': 'wallet.signing_denied',
  'api_key.activated': 'api_key.updated',
  'api_key.deactivated': 'api_key.updated',
};

/** The type an event name stands for today: its new name when it is one of {@link RENAMED_EVENT_TYPES}, else itself. */
export function currentEventType(name: string): string {
  return Object.hasOwn(RENAMED_EVENT_TYPES, name) ? RENAMED_EVENT_TYPES[name] : name;
}

/** An event as every endpoint receives it (the request body); `id` is also the `webhook-id` header. */
export interface WebhookEvent<T extends string = string, D = Record<string, unknown>> {
  /** UUIDv7: unique, and time-ordered (made as the change was made, just before its commit) */
  id: string;
  type: T;
  /** when the change was made (ISO 8601, UTC) */
  timestamp: string;
  gameId: string;
  data: D;
}

/** Who did it, as the audit trail names them: `api-key:<id>`, `profile:<id>`, `operator:<id>`, `system`. */
export type EventActor = string;

/** `player.created`: a player, with its profile and wallet, was created. */
export interface PlayerCreatedData {
  playerId: string;
  /** the id the game gave the player */
  uniqueId: string;
  profileId: string;
  walletId: string;
  actor: EventActor;
}

/** `wallet.signed` and `wallet.signing_denied`: a signing attempt, by hash only (never the message or transaction). */
export interface WalletSigningData {
  /** the audit trail's entry of the attempt */
  auditId: string;
  walletId: string;
  chain: 'evm' | 'sol' | 'sui';
  operation: 'message' | 'transaction' | 'typed-data';
  /** SHA-256 (hex) of what was signed or refused: the message, the unsigned transaction's bytes, or the EIP-712 digest */
  messageSha256: string;
  /** the signing policy's version that decided, and its rule (null: no rule accepted) */
  policyVersion: number | null;
  ruleId: string | null;
  actor: EventActor;
}

/** `signing_policy.*`: the signing policy, or its draft, changed (the rules themselves are read with the console API). */
export interface SigningPolicyChangedData {
  /** `updated`: the version now in force */
  version?: number;
  /** `updated`: true when the version came from activating the draft */
  fromDraft?: boolean;
  actor: EventActor;
}

/** `api_key.created|updated|deleted`: an API key's lifecycle; never the secret. */
export interface ApiKeyChangedData {
  keyId: string;
  name?: string;
  /** the key's state after the change (`updated`) */
  active?: boolean;
  /** `deleted`: true when every profile token the key issued was revoked too (`revokeTokens=true`) */
  revokeTokens?: boolean;
  /** `updated`: which requests must now be signed (`off`, `signing`, `all`), when that changed */
  signedRequests?: string;
  /** `updated`: the fingerprint (`keyid`) of a request-signing key registered */
  signingKeyAdded?: string;
  /** `updated`: the algorithm of the key registered (`ed25519`, `ecdsa-p256-sha256`) */
  algorithm?: string;
  /** `updated`: the fingerprint (`keyid`) of a request-signing key removed */
  signingKeyRemoved?: string;
  actor: EventActor;
}

/** `profile.tokens_revoked`: every token issued for the profile before `revokedBefore` is refused from now on. */
export interface ProfileTokensRevokedData {
  profileId: string;
  revokedBefore: string;
  actor: EventActor;
}

/** `webhook_endpoint.*`: an endpoint of the game was added, changed, deleted, or disabled after failing for a day. */
export interface WebhookEndpointChangedData {
  endpointId: string;
  /** without its query string (it may hold a token of the receiver's): `https://host/path?…` */
  url: string;
  enabled: boolean;
  /** what it receives (not on `disabled`) */
  eventTypes?: string[];
  /** `disabled`: why */
  reason?: string;
  actor: EventActor;
}

/** `webhook.test`: sent to one endpoint by "send test event"; changes nothing. */
export interface WebhookTestData {
  endpointId: string;
  actor: EventActor;
}

/** An operator's or a game server's action as the audit trail records it (identity's audit_events, the wallet's policy_events). */
export interface AuditActionRow {
  applicationId: string | null;
  at: Date;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

/** What a target names, as event data: `api-key:<id>` is `{ keyId }`, and so on. */
const TARGET_FIELDS: Readonly<Record<string, string>> = { 'api-key': 'keyId', profile: 'profileId', 'webhook-endpoint': 'endpointId' };

/**
 * The event an audited action makes, or null when it makes none (an action of no game, or of a type not in the
 * catalogue). The data is the audit entry's details and what its target names; a signing policy's rules are left out
 * (`before`, `after`, `difference`: read them with the console API), as are the operator's address and role.
 */
export function eventOfAuditAction(id: string, row: AuditActionRow): { id: string; type: WebhookEventType; gameId: string; timestamp: string; data: Record<string, unknown> } | null {
  const type = currentEventType(row.action);
  if (row.applicationId === null || !isWebhookEventType(type)) {
    return null;
  }
  const [kind, targetId] = row.target.split(':', 2);
  const { before: _before, after: _after, difference: _difference, ip: _ip, role: _role, ...details } = row.details;
  const named = !Object.hasOwn(TARGET_FIELDS, kind) || targetId === undefined ? {} : { [TARGET_FIELDS[kind]]: targetId };
  return { id, type, gameId: row.applicationId, timestamp: row.at.toISOString(), data: { ...named, ...details, actor: row.actor } };
}

/** The data of each event type (the OpenAPI document's `webhooks` section is made from it). */
export interface WebhookEventData {
  'player.created': PlayerCreatedData;
  'wallet.signed': WalletSigningData;
  'wallet.signing_denied': WalletSigningData;
  'signing_policy.updated': SigningPolicyChangedData;
  'signing_policy.draft_updated': SigningPolicyChangedData;
  'signing_policy.draft_deleted': SigningPolicyChangedData;
  'api_key.created': ApiKeyChangedData;
  'api_key.updated': ApiKeyChangedData;
  'api_key.deleted': ApiKeyChangedData;
  'profile.tokens_revoked': ProfileTokensRevokedData;
  'webhook_endpoint.created': WebhookEndpointChangedData;
  'webhook_endpoint.updated': WebhookEndpointChangedData;
  'webhook_endpoint.deleted': WebhookEndpointChangedData;
  'webhook_endpoint.disabled': WebhookEndpointChangedData;
  'webhook.test': WebhookTestData;
}

/** An event as a service's outbox relay hands it to the dispatcher (the body every endpoint receives). */
export interface OutboxEventInput {
  id: string;
  type: string;
  gameId: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** What an operator sets of an endpoint. `eventTypes`: catalogue types, or `["*"]` for every one. */
export interface WebhookEndpointInput {
  url: string;
  eventTypes: string[];
  description?: string;
  enabled?: boolean;
}

/** A game's webhook endpoint as the console API shows it; the secret is shown only when made ({@link CreatedWebhookEndpointView}). */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  /** the event types it receives (every one when it subscribed to all: `["*"]`) */
  eventTypes: string[];
  enabled: boolean;
  /** why it was disabled by the platform (after failing every attempt for a day); null when enabled or turned off by hand */
  disabledReason: string | null;
  disabledAt: string | null;
  /** first failure of the current run of failures; null when the last attempt succeeded */
  failingSince: string | null;
  /** while a rotated secret still signs too (two signatures), until when */
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer to creating an endpoint or rotating its secret: the only time the secret (`whsec_…`) is returned. */
export interface CreatedWebhookEndpointView extends WebhookEndpointView {
  secret: string;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event's delivery to one endpoint: where its attempts stand. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  /** `pending`: an attempt is due at `nextAttemptAt`; `failed`: every attempt failed (or the endpoint was disabled) */
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  /** the last attempt's HTTP status (null: no answer: refused, timed out, or not allowed) */
  responseStatus: number | null;
  /** the first bytes of the last answer (at most 256 characters) */
  responseBody: string | null;
  /** why the last attempt failed, when it did */
  error: string | null;
  createdAt: string;
}

/** The limits of an endpoint's fields (SPEC §11). */
export const WEBHOOK_LIMITS = {
  urlLength: 2048,
  descriptionLength: 200,
  endpointsPerGame: 20,
  /** how long a rotated secret keeps signing beside the new one, by default and at most */
  rotationOverlapSeconds: { default: 86_400, max: 7 * 86_400 },
} as const;
