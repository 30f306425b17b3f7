import { consolePasswordDigest } from './console-password';

describe(consolePasswordDigest.name, () => {
  it('is a SHA-256 hex digest that does not contain the password', () => {
    const digest = consolePasswordDigest('Ops@Example.com ', 'correct horse battery');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain('correct');
  });

  it('normalizes the e-mail and differs between operators with the same password', () => {
    expect(consolePasswordDigest('Ops@Example.com ', 'pw-123456789')).toBe(consolePasswordDigest('ops@example.com', 'pw-123456789'));
    expect(consolePasswordDigest('a@example.com', 'pw-123456789')).not.toBe(consolePasswordDigest('b@example.com', 'pw-123456789'));
  });
});
