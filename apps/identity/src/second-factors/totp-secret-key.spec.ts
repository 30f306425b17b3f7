import { IntegrityError } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';
import { openTotpSecret, sealTotpSecret } from './totp-secret-key';

describe(sealTotpSecret.name, () => {
  const key = randomBytes(32);
  const operatorId = '0190a0a0-0000-7000-8000-000000000001';
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('never stores the secret as it is, and opens it again with the same key and operator', () => {
    const sealed = sealTotpSecret(key, operatorId, secret);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain(secret);
    expect(openTotpSecret(key, operatorId, sealed)).toBe(secret);
  });

  it("refuses another key, another operator's row and any change", () => {
    const sealed = sealTotpSecret(key, operatorId, secret);
    expect(() => openTotpSecret(randomBytes(32), operatorId, sealed)).toThrow(IntegrityError);
    expect(() => openTotpSecret(key, '0190a0a0-0000-7000-8000-000000000002', sealed)).toThrow(IntegrityError);
    const [version, iv, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => openTotpSecret(key, operatorId, [version, iv, flipped.toString('base64url'), tag].join('.'))).toThrow(IntegrityError);
    expect(() => openTotpSecret(key, operatorId, 'plain')).toThrow(IntegrityError);
  });
});
