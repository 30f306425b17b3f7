import { API_KEY_CACHE_CLOCK_SKEW_MS, ResolvedApiKey, freshCachedApiKey } from './identity';

describe(freshCachedApiKey.name, () => {
  const state: ResolvedApiKey = { keyId: 'k', applicationId: 'g', active: true, signedRequests: 'signing', signingKeys: [] };
  const now = 1_800_000_000_000;
  const entry = (cachedUntil?: unknown) => JSON.stringify(cachedUntil === undefined ? state : { ...state, cachedUntil });

  it('takes a state before its cachedUntil, without the field, and says how much longer it may be used', () => {
    expect(freshCachedApiKey(entry(now + 15_000), now)).toEqual({ state, freshForMs: 15_000 + API_KEY_CACHE_CLOCK_SKEW_MS });
  });

  it(`takes a state up to ${API_KEY_CACHE_CLOCK_SKEW_MS} ms past its cachedUntil (clocks differ), and refuses it after`, () => {
    expect(freshCachedApiKey(entry(now - API_KEY_CACHE_CLOCK_SKEW_MS), now)).toEqual({ state, freshForMs: 0 });
    expect(freshCachedApiKey(entry(now - API_KEY_CACHE_CLOCK_SKEW_MS - 1), now)).toBeUndefined();
  });

  it('refuses a state with no cachedUntil, or one that is not a number', () => {
    expect(freshCachedApiKey(entry(), now)).toBeUndefined();
    expect(freshCachedApiKey(entry(String(now + 15_000)), now)).toBeUndefined();
    expect(freshCachedApiKey(entry(null), now)).toBeUndefined();
  });

  it('takes "no such key" at any time: replaying it only refuses', () => {
    expect(freshCachedApiKey('null', now)).toEqual({ state: null, freshForMs: Infinity });
  });

  it('refuses text that is not a state', () => {
    for (const text of ['', '{', '[]', '"x"', '42', 'true']) {
      expect([text, freshCachedApiKey(text, now)]).toEqual([text, undefined]);
    }
  });
});
