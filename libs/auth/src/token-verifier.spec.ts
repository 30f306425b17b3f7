import { issuedAtMs } from './token-verifier';

describe(issuedAtMs.name, () => {
  it('reads the millisecond timestamp of a UUIDv7 jti', () => {
    expect(issuedAtMs({ jti: '019aa6a1-8d2c-7abc-8def-0123456789ab', iat: 1 })).toBe(0x019aa6a18d2c);
  });

  it('falls back to iat in ms for another jti', () => {
    expect(issuedAtMs({ jti: 'not-a-uuid', iat: 1_700_000_000 })).toBe(1_700_000_000_000);
  });
});
