import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevSecret } from './dev-secret';

describe(loadOrCreateDevSecret.name, () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gwt-devsecret-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a 32-byte key once, keeps it, and leaves no draft file behind', () => {
    const first = loadOrCreateDevSecret(join(dir, 'transport'), 'hmac');
    expect(first.created).toBe(true);
    expect(first.key).toHaveLength(32);
    const again = loadOrCreateDevSecret(join(dir, 'transport'), 'hmac');
    expect([again.created, again.key.equals(first.key)]).toEqual([false, true]);
    expect(readdirSync(join(dir, 'transport'))).toEqual(['hmac.key']);
  });

  it('refuses a key file that does not hold a whole key, naming it, rather than use a short key', () => {
    writeFileSync(join(dir, 'hmac.key'), '');
    expect(() => loadOrCreateDevSecret(dir, 'hmac')).toThrow(/hmac\.key does not hold a 32-byte base64 key; delete it/);
  });
});
