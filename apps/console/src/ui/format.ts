/** Dates and times in the browser's own locale and time zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/**
 * The URL to show a player's image from, or null: only absolute http(s) URLs are ever loaded (never `javascript:`,
 * `data:` or a path on this origin).
 */
export function safeImageUrl(value: string | null | undefined): string | null {
  if (!value) {
    return null;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** JSON as indented text, for display (shown as text, never as markup). */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Audit actions in words; the names used before the naming rule (`api_key.activated`, `wallet.signing-denied`) stay readable. */
const ACTIONS: Record<string, string> = {
  'game.created': 'Game created',
  'api_key.created': 'API key created',
  'api_key.updated': 'API key changed',
  'api_key.activated': 'API key activated',
  'api_key.deactivated': 'API key deactivated',
  'api_key.deleted': 'API key deleted',
  'wallet.signed': 'Signed',
  'wallet.signing_denied': 'Signing refused by the policy',
  'wallet.signing-denied': 'Signing refused by the policy',
  'profile.tokens_revoked': "Player's tokens revoked",
  'webhook_endpoint.created': 'Webhook endpoint added',
  'webhook_endpoint.updated': 'Webhook endpoint changed',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'webhook_endpoint.disabled': 'Webhook endpoint disabled after failing',
  'webhook_endpoint.secret_rotated': 'Webhook secret rotated',
  'webhook_delivery.redelivered': 'Webhook events redelivered',
  'signing_policy.updated': 'Signing policy changed',
  'signing_policy.draft_updated': 'Draft policy saved',
  'signing_policy.draft_deleted': 'Draft policy deleted',
  'operator.signed_in': 'Signed in',
  'operator.signed_out': 'Signed out',
};

/**
 * An audit action in words (`api_key.deactivated` → "API key deactivated"); an unknown one as it is. An
 * `api_key.updated` says what it changed, from its details: which way the key went, or its request signing.
 */
export function describeAction(action: string, details?: Record<string, unknown>): string {
  if (action === 'api_key.updated' && details !== undefined) {
    const change = describeKeyUpdate(details);
    if (change !== null) {
      return change;
    }
  }
  return Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : action;
}

function describeKeyUpdate(details: Record<string, unknown>): string | null {
  if (typeof details.active === 'boolean') {
    return details.active ? 'API key activated' : 'API key deactivated';
  }
  if (typeof details.signedRequests === 'string') {
    return details.signedRequests === 'off' ? 'Signed requests turned off' : 'Signed requests required';
  }
  if (typeof details.signingKeyAdded === 'string') {
    return 'Signing key added';
  }
  return typeof details.signingKeyRemoved === 'string' ? 'Signing key removed' : null;
}

/** An audit actor or target (`api-key:0193…`) as kind and id, for display. */
export function splitReference(reference: string): { kind: string; id: string } {
  const colon = reference.indexOf(':');
  if (colon < 0) {
    return { kind: reference, id: '' };
  }
  const kind = reference.slice(0, colon);
  const names: Record<string, string> = { 'api-key': 'API key', operator: 'Operator', profile: 'Profile', wallet: 'Wallet', game: 'Game' };
  return { kind: names[kind] ?? kind, id: reference.slice(colon + 1) };
}

/**
 * Who made a change (`operator:<id>`, `system:migration`) in words: "you" for the signed-in operator, another
 * operator by the start of their id.
 */
export function describeActor(actor: string | null, operatorId: string | undefined): string {
  if (actor === null) {
    return 'nobody yet';
  }
  if (actor === `operator:${operatorId}`) {
    return 'you';
  }
  if (actor === 'system:migration') {
    return 'the conversion to rules';
  }
  const { kind, id } = splitReference(actor);
  return id === '' ? kind : `${kind.toLowerCase()} ${id.slice(0, 8)}…`;
}

/** A long hex digest shortened for reading (`c3e47ac3…9b7474`); anything else as it is. */
function shortDigest(value: string): string {
  return value.length > 24 && /^[0-9a-f]+$/i.test(value) ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
}

/**
 * `details` of an audit entry as short `name: value` text; the client address an operator acted from comes last, after
 * what the action itself recorded (the stored order puts short names first).
 */
export function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .sort(([a], [b]) => Number(a === 'ip') - Number(b === 'ip'))
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? shortDigest(value) : JSON.stringify(value)}`)
    .join(' · ');
}
