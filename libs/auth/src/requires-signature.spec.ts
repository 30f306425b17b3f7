import { ResolvedApiKey } from '@game-wallet/contracts';
import { requiresSignature } from './gateway-auth';

describe(requiresSignature.name, () => {
  const key = (signedRequests?: string): ResolvedApiKey => ({ keyId: 'k', applicationId: 'g', active: true, signedRequests: signedRequests as ResolvedApiKey['signedRequests'] });

  it.each([
    ['off', false, false],
    ['signing', false, true],
    ['all', true, true],
  ])('with %s: a plain route %s, a signing route %s', (setting, plain, signing) => {
    expect(requiresSignature(key(setting), { apiKey: true })).toBe(plain);
    expect(requiresSignature(key(setting), { apiKey: true, signing: true })).toBe(signing);
  });

  it('reads an entry of an earlier version (no setting) as off', () => {
    expect(requiresSignature(key(undefined), { apiKey: true, signing: true })).toBe(false);
  });

  it('fails closed on a setting it does not know: every route must be signed', () => {
    expect(requiresSignature(key('some-future-setting'), { apiKey: true })).toBe(true);
  });
});
