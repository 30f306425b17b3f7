import { needsRehash, hashPassword, verifyPassword } from './passwords';

describe(hashPassword.name, () => {
  it('stores an scrypt hash with its parameters and a salt, never the password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
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
  it('asks for a new hash when the stored one has weaker parameters than N=2^17, r=8, p=1', () => {
    expect(needsRehash('scrypt$32768$8$1$c2FsdA==$aGFzaA==')).toBe(true);
    expect(needsRehash('scrypt$131072$8$1$c2FsdA==$aGFzaA==')).toBe(false);
  });
});

describe(verifyPassword.name, () => {
  it('refuses stored parameters out of range instead of spending memory on them', async () => {
    await expect(verifyPassword('x', `scrypt$${2 ** 24}$8$1$c2FsdA==$aGFzaA==`)).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$abc$8$1$c2FsdA==$aGFzaA==')).resolves.toBe(false);
  });
});
