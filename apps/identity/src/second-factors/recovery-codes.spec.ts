import { createHash } from 'node:crypto';
import { RECOVERY_CODE_COUNT, hashRecoveryCode, newRecoveryCodes } from './recovery-codes';

describe(newRecoveryCodes.name, () => {
  it('makes ten distinct codes of 12 base32 characters (60 random bits each)', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/);
    }
  });

  it('draws every character of the alphabet (no bias toward a few)', () => {
    const seen = new Set(Array.from({ length: 40 }, () => newRecoveryCodes().join('').replace(/-/g, '')).join(''));
    expect(seen.size).toBe(32);
  });
});

describe(hashRecoveryCode.name, () => {
  it('stores the SHA-256 (hex) of the canonical code: case, spaces and dashes do not matter', () => {
    const [code] = newRecoveryCodes();
    const canonical = code.replace(/-/g, '');
    expect(hashRecoveryCode(code)).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(hashRecoveryCode(` ${code.toUpperCase().replace(/-/g, ' ')} `)).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads i, l and o as Crockford does (1, 1, 0), and tells other codes apart', () => {
    expect(hashRecoveryCode('abcd-ef01-0111')).toBe(hashRecoveryCode('ABCD-EFOI-OLil'));
    expect(hashRecoveryCode('abcd-ef01-0112')).not.toBe(hashRecoveryCode('abcd-ef01-0111'));
  });
});
