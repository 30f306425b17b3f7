import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Development only: a 32-byte secret kept in the data folder (created on first use, mode 0600), so a developer's
 * platform keeps its keys across restarts without configuration. Production refuses to start without the real
 * variable, so this is never reached there. Returns whether the file was just created.
 */
export function loadOrCreateDevSecret(dataDir: string, name: string): { key: Buffer; created: boolean; path: string } {
  const path = join(dataDir, `${name}.key`);
  try {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length === 32) {
      return { key, created: false, path };
    }
  } catch {
    // not there yet
  }
  const key = randomBytes(32);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole under a name of its own, then linked into place: a replica starting at the same moment sees either
  // no file or the complete key, never a file created but not yet written.
  const draft = `${path}.${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, path);
    return { key, created: true, path };
  } catch {
    // another replica created it first: use theirs
    const theirs = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (theirs.length !== 32) {
      throw new Error(`${path} does not hold a 32-byte base64 key; delete it to have a new one generated`);
    }
    return { key: theirs, created: false, path };
  } finally {
    unlinkSync(draft);
  }
}
