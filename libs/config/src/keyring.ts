/** Key ids: 1-64 letters, digits or `_.-`. */
export const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A list of keys: a JSON object `{"id": "<base64>"}` or `id=<base64>,id2=<base64>`, each key at least `minBytes` long
 * (exactly, with `exactBytes`). Returns the keys, or a message describing what is wrong. The message names entries
 * by position only: a misplaced separator can put key material where an id is expected, so no part of the value is
 * ever repeated.
 */
export function parseKeyring(value: string | undefined, options: KeyringFormat): Map<string, Buffer> | string {
  const { minBytes, exactBytes, id = { pattern: KEY_ID, described: 'id=base64, the id 1-64 letters, digits or _.-' } } = options;
  const keys = new Map<string, Buffer>();
  if (value === undefined) {
    return keys;
  }
  let entries: [string, unknown][];
  try {
    entries = value.trim().startsWith('{')
      ? Object.entries(JSON.parse(value) as Record<string, unknown>)
      : value.split(',').map((pair) => {
          const at = pair.indexOf('=');
          return at <= 0 ? ['', ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        });
  } catch {
    return 'must be a JSON object {"id": "base64 key"} or id=base64 pairs separated by commas';
  }
  const size = exactBytes ? `${minBytes} bytes` : `at least ${minBytes} bytes`;
  for (const [index, [name, encoded]] of entries.entries()) {
    const position = `entry ${index + 1}`;
    if (!id.pattern.test(name)) {
      return `${position}: must be ${id.described}`;
    }
    const key = typeof encoded === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (exactBytes ? key.length !== minBytes : key.length < minBytes) {
      return `${position}: the key must be ${size}, base64-encoded`;
    }
    keys.set(name, key);
  }
  return keys;
}

/** How a keyring's entries are written: key sizes, and what an id looks like (default {@link KEY_ID}). */
export interface KeyringFormat {
  minBytes: number;
  exactBytes?: boolean;
  id?: { pattern: RegExp; described: string };
}

/** The ids in a keyring value (none when it does not parse). */
export function keyringIds(value: string | undefined, options: KeyringFormat): string[] {
  const parsed = parseKeyring(value, options);
  return typeof parsed === 'string' ? [] : [...parsed.keys()];
}
