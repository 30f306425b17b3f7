import { WEBHOOK_EVENT_TYPES, currentEventType, eventOfAuditAction, isWebhookEventType } from './webhooks';

describe('event types', () => {
  it('maps the names from before the rule to their new ones, and nothing else', () => {
    expect(['wallet.signing-denied', 'api_key.activated', 'api_key.deactivated', 'player.created'].map(currentEventType)).toEqual([
      'wallet.signing_denied',
      'api_key.updated',
      'api_key.updated',
      'player.created',
    ]);
  });

  it('takes no name of the object prototype for an event type or an old name', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', '__defineGetter__', 'hasOwnProperty']) {
      expect(currentEventType(name)).toBe(name);
      expect(isWebhookEventType(name)).toBe(false);
    }
  });

  it('follows one rule: <resource>.<what happened>, lower snake case', () => {
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !/^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$/.test(type))).toEqual([]);
  });
});

describe(eventOfAuditAction.name, () => {
  const at = new Date('2026-11-26T10:00:00Z');

  it("makes a game's audited action an event, with what its target names and without the rules, address or role", () => {
    const event = eventOfAuditAction('e-1', {
      applicationId: 'g-1',
      at,
      actor: 'operator:o-1',
      action: 'signing_policy.updated',
      target: 'game:g-1',
      details: { version: 4, before: [], after: [], difference: [], ip: '203.0.113.9', role: 'admin' },
    });
    expect(event).toEqual({ id: 'e-1', type: 'signing_policy.updated', gameId: 'g-1', timestamp: '2026-11-26T10:00:00.000Z', data: { version: 4, actor: 'operator:o-1' } });
    expect(eventOfAuditAction('e-2', { applicationId: 'g-1', at, actor: 'system', action: 'api_key.activated', target: 'api-key:k-1', details: { active: true } })).toEqual(
      expect.objectContaining({ type: 'api_key.updated', data: { keyId: 'k-1', active: true, actor: 'system' } }),
    );
  });

  it('makes none for an action of no game or of no event type', () => {
    expect(eventOfAuditAction('e-1', { applicationId: null, at, actor: 'operator:o-1', action: 'api_key.created', target: 'api-key:k-1', details: {} })).toBeNull();
    expect(eventOfAuditAction('e-1', { applicationId: 'g-1', at, actor: 'operator:o-1', action: 'game.created', target: 'game:g-1', details: {} })).toBeNull();
    expect(eventOfAuditAction('e-1', { applicationId: 'g-1', at, actor: 'operator:o-1', action: 'constructor', target: 'constructor:x', details: {} })).toBeNull();
  });
});
