import { API_KEY_FORMAT, generateApiKeySecret, hashApiKey, previewApiKey } from './api-key-secret';

describe(generateApiKeySecret.name, () => {
  it('makes gk_ + 40 base62 characters, different every time', () => {
    const secrets = new Set(Array.from({ length: 1000 }, generateApiKeySecret));
    expect(secrets.size).toBe(1000);
    for (const secret of secrets) {
      expect(secret).toMatch(API_KEY_FORMAT);
    }
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, generateApiKeySecret).join('').slice(3));
    expect(seen.size).toBeGreaterThanOrEqual(62);
  });
});

describe(previewApiKey.name, () => {
  it('shows gk_, the next 4, an ellipsis and the last 4', () => {
    expect(previewApiKey('gk_AbCdEFGHIJKLMNOPQRSTUVWXYZ0123456789wXyZ')).toBe('gk_AbCd\u2026wXyZ');
  });
});

describe(hashApiKey.name, () => {
  it('is the SHA-256 of the secret in hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
