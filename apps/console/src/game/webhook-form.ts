import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type WebhookEndpointInput, type WebhookEndpointView, type WebhookEventType } from '@game-wallet/contracts/webhooks';

/** What the endpoint form holds: `all` stands for `["*"]` (every event type, those added later too). */
export interface WebhookForm {
  url: string;
  description: string;
  all: boolean;
  types: WebhookEventType[];
  enabled: boolean;
}

export const EMPTY_WEBHOOK_FORM: WebhookForm = { url: '', description: '', all: true, types: [], enabled: true };

/** The form of an endpoint as it is (an event type no longer in the catalogue is left out). */
export function formOf(endpoint: WebhookEndpointView): WebhookForm {
  const all = endpoint.eventTypes.includes('*');
  return {
    url: endpoint.url,
    description: endpoint.description,
    all,
    types: all ? [] : WEBHOOK_EVENT_TYPES.filter((type) => endpoint.eventTypes.includes(type)),
    enabled: endpoint.enabled,
  };
}

/** The URL's problem, or null; the platform checks the rest (https only in production, a public address). */
export function urlProblem(value: string): string | null {
  const url = value.trim();
  if (url === '') {
    return "Enter the URL your game backend receives events at.";
  }
  if (url.length > WEBHOOK_LIMITS.urlLength) {
    return `Use at most ${WEBHOOK_LIMITS.urlLength} characters.`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter an absolute URL, starting with https://.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return 'Enter an absolute URL, starting with https://.';
  }
  if (parsed.username !== '' || parsed.password !== '' || parsed.hash !== '') {
    return 'Leave out a user name, password or #fragment.';
  }
  return null;
}

export function descriptionProblem(value: string): string | null {
  return [...value.trim()].length > WEBHOOK_LIMITS.descriptionLength ? `Use at most ${WEBHOOK_LIMITS.descriptionLength} characters.` : null;
}

export function eventTypesProblem(form: WebhookForm): string | null {
  return form.all || form.types.length > 0 ? null : 'Choose at least one event, or all events.';
}

/** The event types as the API takes them. */
export function eventTypesOf(form: WebhookForm): string[] {
  return form.all ? ['*'] : [...form.types];
}

/** The body of a new endpoint. */
export function inputOf(form: WebhookForm): WebhookEndpointInput {
  const description = form.description.trim();
  return { url: form.url.trim(), eventTypes: eventTypesOf(form), ...(description === '' ? {} : { description }), enabled: form.enabled };
}

/** What the form changes of `endpoint`: only the fields that differ (an empty object: nothing to save). */
export function changesOf(endpoint: WebhookEndpointView, form: WebhookForm): Partial<WebhookEndpointInput> {
  const before = formOf(endpoint);
  const change: Partial<WebhookEndpointInput> = {};
  if (form.url.trim() !== before.url) {
    change.url = form.url.trim();
  }
  if (form.description.trim() !== before.description) {
    change.description = form.description.trim();
  }
  if (form.all !== before.all || (!form.all && form.types.join() !== before.types.join())) {
    change.eventTypes = eventTypesOf(form);
  }
  if (form.enabled !== endpoint.enabled) {
    change.enabled = form.enabled;
  }
  return change;
}

/** How an endpoint is named in buttons and dialogs: its description, else its URL. */
export function endpointName(endpoint: WebhookEndpointView): string {
  return endpoint.description === '' ? endpoint.url : endpoint.description;
}
