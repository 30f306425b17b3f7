import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from '@game-wallet/contracts';
import { z } from 'zod';
import { pageQuery, withoutControlCharacters } from '../validation';
import { isoInstant } from './audit-export';

/** An endpoint's URL: absolute `https` (or `http`, which identity takes only in development), no user name or password, no fragment. */
const urlField = z
  .string()
  .max(WEBHOOK_LIMITS.urlLength, `must be at most ${WEBHOOK_LIMITS.urlLength} characters`)
  .refine(...withoutControlCharacters)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.hash === '' && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute https URL without user name, password or fragment');

const eventTypesField = z
  .array(z.string().max(64, 'must be at most 64 characters'), { error: 'must be a list of event types' })
  .min(1, 'must name at least one event type, or "*" for every one')
  .max(WEBHOOK_EVENT_TYPES.length + 1, `must have at most ${WEBHOOK_EVENT_TYPES.length + 1} entries`)
  .describe(`event types (${WEBHOOK_EVENT_TYPES.join(', ')}), or ["*"] for every one`);

const descriptionField = z
  .string()
  .trim()
  .max(WEBHOOK_LIMITS.descriptionLength, `must be at most ${WEBHOOK_LIMITS.descriptionLength} characters`)
  .refine(...withoutControlCharacters);

const enabledField = z.boolean({ error: 'must be true or false' });

export const createWebhookBody = z.object({ url: urlField, eventTypes: eventTypesField, description: descriptionField.optional(), enabled: enabledField.optional() }).strict();

export const updateWebhookBody = z
  .object({ url: urlField.optional(), eventTypes: eventTypesField.optional(), description: descriptionField.optional(), enabled: enabledField.optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { error: 'must change at least one of url, eventTypes, description, enabled' });

export const rotateSecretBody = z
  .object({
    overlapSeconds: z
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(0, 'must be 0 or more')
      .max(WEBHOOK_LIMITS.rotationOverlapSeconds.max, `must be at most ${WEBHOOK_LIMITS.rotationOverlapSeconds.max} (7 days)`)
      .optional()
      .describe(`how long the old secret keeps signing too (default ${WEBHOOK_LIMITS.rotationOverlapSeconds.default}: a day; 0: not at all)`),
  })
  .strict();

export const redeliverFailedBody = z
  .object({ since: isoInstant('failed deliveries of events received at or after this').unwrap() })
  .strict();

export const deliveriesQuery = pageQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed'], { error: 'must be pending, succeeded or failed' }).optional(),
});
