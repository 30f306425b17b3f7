import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  try {
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return { key, created: true, path };
  } catch {
    // another replica created it first: use theirs
    return { key: Buffer.from(readFileSync(path, 'utf8').trim(), 'base64'), created: false, path };
  }
}

/** A base64 string holding exactly 32 bytes. */
export function decodeKey32(value: string): Buffer | undefined {
  const key = Buffer.from(value, 'base64');
  return key.length === 32 && key.toString('base64').replace(/=+$/, '') === value.trim().replace(/=+$/, '') ? key : undefined;
}
