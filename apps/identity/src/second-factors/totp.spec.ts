import { Secret, TOTP } from 'otpauth';
import { matchTotp, newTotpSecret, totpUri } from './totp';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890"; at T = 59 s the 8-digit code is 94287082, so 287082.
const RFC_SECRET = Secret.fromUTF8('12345678901234567890').base32;
const codeAt = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

describe(matchTotp.name, () => {
  it("accepts RFC 6238's test vector at its time, answering its 30-second step", () => {
    expect(matchTotp(RFC_SECRET, '287082', 59_000)).toBe(1);
    expect(matchTotp(RFC_SECRET, '081804', 1_111_111_109_000)).toBe(Math.floor(1_111_111_109 / 30));
  });

  it('accepts the code of the step before or after (clock drift), answering that step, and no farther', () => {
    const now = 1_700_000_000_000; // a fixed clock
    const secret = newTotpSecret();
    const step = Math.floor(now / 30_000);
    expect(matchTotp(secret, codeAt(secret, now), now)).toBe(step);
    expect(matchTotp(secret, codeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(secret, codeAt(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(secret, codeAt(secret, now - 60_000), now)).toBeNull();
    expect(matchTotp(secret, codeAt(secret, now + 60_000), now)).toBeNull();
  });

  it('refuses anything but six digits without computing', () => {
    const now = 1_700_000_000_000;
    const secret = newTotpSecret();
    const code = codeAt(secret, now);
    for (const wrong of [` ${code}`, `${code}0`, code.slice(1), 'abcdef', '']) {
      expect(matchTotp(secret, wrong, now)).toBeNull();
    }
  });
});

describe(newTotpSecret.name, () => {
  it('makes 160-bit base32 secrets, a new one each time, in an otpauth URI apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = totpUri(secret, 'Game Wallet console', 'owner@example.com');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Game%20Wallet%20console:owner%40example\.com\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(new URL(uri).searchParams.get('period')).toBe('30');
  });
});
