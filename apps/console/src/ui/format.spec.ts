import { describe, expect, it } from 'vitest';
import { describeAction, describeActor, describeDetails, formatDateTime, safeImageUrl, splitReference } from './format';

describe('safeImageUrl', () => {
  it('keeps absolute http and https URLs', () => {
    expect(safeImageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(safeImageUrl('http://cdn.example.com/a.png')).toBe('http://cdn.example.com/a.png');
  });

  it.each([['javascript:alert(1)'], ['data:image/svg+xml,<svg onload=alert(1)>'], ['/console/x.png'], ['not a url'], [''], [null]])('refuses %s', (value) => {
    expect(safeImageUrl(value)).toBeNull();
  });
});

describe('audit wording', () => {
  it('names known actions in words and keeps unknown ones as they are', () => {
    expect(describeAction('api_key.deactivated')).toBe('API key deactivated');
    expect(describeAction('api_key.updated', { name: 'server', active: false })).toBe('API key deactivated');
    expect(describeAction('api_key.updated', { name: 'server', active: true })).toBe('API key activated');
    expect(describeAction('constructor')).toBe('constructor');
    expect(describeAction('signing_policy.updated')).toBe('Signing policy changed');
    expect(describeAction('signing_policy.draft_updated')).toBe('Draft policy saved');
    expect(describeAction('something.new')).toBe('something.new');
  });

  it("says what an API key's change did to its request signing", () => {
    expect(describeAction('api_key.updated', { name: 'server', signedRequests: 'signing' })).toBe('Signed requests required');
    expect(describeAction('api_key.updated', { name: 'server', signedRequests: 'all' })).toBe('Signed requests required');
    expect(describeAction('api_key.updated', { name: 'server', signedRequests: 'off' })).toBe('Signed requests turned off');
    expect(describeAction('api_key.updated', { name: 'server', signingKeyAdded: 'A'.repeat(43), algorithm: 'ed25519' })).toBe('Signing key added');
    expect(describeAction('api_key.updated', { name: 'server', signingKeyRemoved: 'A'.repeat(43) })).toBe('Signing key removed');
    expect(describeAction('api_key.updated', { name: 'server' })).toBe('API key changed');
  });

  it('names who changed a policy', () => {
    expect(describeActor('operator:o1', 'o1')).toBe('you');
    expect(describeActor('operator:0193a2b4-5c6d', 'o1')).toBe('operator 0193a2b4…');
    expect(describeActor('system:migration', 'o1')).toBe('the conversion to rules');
    expect(describeActor(null, 'o1')).toBe('nobody yet');
  });

  it('splits references and describes details as text', () => {
    expect(splitReference('api-key:0193')).toEqual({ kind: 'API key', id: '0193' });
    expect(splitReference('system')).toEqual({ kind: 'system', id: '' });
    expect(describeDetails({ name: 'server', chain: 'evm', n: 2 })).toBe('name: server · chain: evm · n: 2');
    expect(describeDetails({ ip: '198.51.100.23', name: 'server', revokeTokens: true })).toBe('name: server · revokeTokens: true · ip: 198.51.100.23');
    expect(describeDetails({ messageSha256: 'c3e47ac3bb2981207cafa1c4ed4a4cb5a763f8a41c0d88846efab893379b7474' })).toBe('messageSha256: c3e47ac3…9b7474');
  });
});

describe('formatDateTime', () => {
  it('formats in the locale and leaves a value that is not a date as it is', () => {
    expect(formatDateTime('2026-11-21T10:00:00.000Z')).toMatch(/2026/);
    expect(formatDateTime('soon')).toBe('soon');
  });
});
