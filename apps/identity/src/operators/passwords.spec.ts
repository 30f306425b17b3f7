import { randomBytes, scryptSync } from 'node:crypto';
import { needsRehash, hashPassword, verifyPassword } from './passwords';

describe(hashPassword.name, () => {
  it('stores an scrypt hash with its parameters and a salt, never the password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(needsRehash(stored)).toBe(false);
    expect(stored).not.toContain('correct horse');
    expect(await hashPassword('correct horse battery staple')).not.toBe(stored);
  });

  it('verifies the right password and refuses a wrong or malformed one', async () => {
    const stored = await hashPassword('correct horse battery staple');
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('Correct horse battery staple', stored)).resolves.toBe(false);
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
  });
});

describe(needsRehash.name, () => {
  it('asks for a new hash when the stored one has other parameters than N=2^15, r=8, p=3', () => {
    expect(needsRehash('scrypt$32768$8$1$c2FsdA==$aGFzaA==')).toBe(true);
    expect(needsRehash('scrypt$131072$8$1$c2FsdA==$aGFzaA==')).toBe(true);
    expect(needsRehash('scrypt$32768$8$3$c2FsdA==$aGFzaA==')).toBe(false);
  });
});

describe(verifyPassword.name, () => {
  it('still verifies a hash made with the earlier parameters, N=2^17, r=8, p=1', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('correct horse battery staple', salt, 32, { N: 131072, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
    const stored = ['scrypt', 131072, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('Correct horse battery staple', stored)).resolves.toBe(false);
  });

  it('refuses stored parameters out of range instead of spending memory on them', async () => {
    await expect(verifyPassword('x', `scrypt$${2 ** 24}$8$1$c2FsdA==$aGFzaA==`)).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$abc$8$1$c2FsdA==$aGFzaA==')).resolves.toBe(false);
  });
});
