/**
 * Building blocks of the API fuzz test: a seeded random source, hostile JSON values by kind, and mutations of a valid
 * JSON body at one place. Nothing here knows the API: the suite picks the places and the values.
 */

/** A small seeded PRNG (sfc32): the same seed gives the same run. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i += 1) {
      this.next();
    }
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Up to `count` items, in random order, without repeats. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count);
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }
}

/** A seed from `FUZZ_SEED` when set (to replay a run), else a new one. */
export function fuzzSeed(env: Record<string, string | undefined> = process.env): number {
  const given = env.FUZZ_SEED;
  return given !== undefined && /^\d+$/.test(given) ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 32);
}

/** JSON text put into a body as it is: numbers JSON.stringify cannot write (78 digits, 1e400) and very deep nesting. */
export class RawJson {
  constructor(
    readonly text: string,
    /** how the value is described in a failure report */
    readonly label: string,
  ) {}

  toJSON(): string {
    return this.label;
  }
}

/** JSON text of a value that may hold {@link RawJson} parts. Keys are written as they are (`__proto__` included). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) {
    return value.text;
  }
  if (Array.isArray(value)) {
    return `[${value.map(toJsonText).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, inner]) => `${JSON.stringify(key)}:${toJsonText(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A short description of a hostile value for reports. */
export function describeValue(value: unknown): string {
  const text = value instanceof RawJson ? value.label : JSON.stringify(value, (_key, inner: unknown) => (inner instanceof RawJson ? inner.label : inner)) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 60)}…(${text.length} chars)` : text;
}

/** The names an object inherits from `Object.prototype`: as keys and as values they reach lookups that forget `hasOwn`. */
export const PROTOTYPE_NAMES = ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'toLocaleString', '__defineGetter__'];

const digits78 = `1${'0'.repeat(77)}`;

/** Hostile values by kind. Each function picks one variant. */
export const HOSTILE = {
  /** text a database may refuse: NUL, alone or inside */
  nul: (random: Random): string => random.pick(['\u0000', 'a\u0000b', `${'x'.repeat(10)}\u0000`]),
  /** text that is not well-formed Unicode: a lone surrogate */
  loneSurrogate: (random: Random): string => random.pick(['\udc00', '\ud800', 'a\ud83dz', `${'\udfff'.repeat(3)}`]),
  prototypeName: (random: Random): string => random.pick(PROTOTYPE_NAMES),
  /** a whole number of 78 digits, past uint256, as a JSON number or as a string */
  digits78: (random: Random): unknown => (random.chance(0.5) ? new RawJson(digits78, '<78-digit number>') : random.pick([digits78, `9${'9'.repeat(77)}`])),
  /** numbers at the edges */
  number: (random: Random): unknown =>
    random.pick<unknown>([
      -1,
      -0.5,
      1.5,
      0,
      2 ** 53 + 2,
      1e308,
      -1e308,
      new RawJson('1e400', '1e400'),
      new RawJson('-0', '-0'),
      new RawJson('9007199254740993', '2^53+1'),
      '-1',
      '1e3',
      '0x',
      `0x${'f'.repeat(65)}`,
      ' 1',
    ]),
  string: (random: Random): unknown =>
    random.pick<unknown>([
      '',
      ' ',
      '\u0001\u001f\u007f',
      '\u202e\u200b\ufeff',
      '😀'.repeat(50),
      'x'.repeat(5000),
      'x'.repeat(40_000),
      '../../etc/passwd',
      "' OR 1=1 --",
      '<img src=x onerror=alert(1)>',
      '%00%ZZ',
      '\\u0000',
      'null',
      '0x',
      'ｅｖｍ',
    ]),
  wrongType: (random: Random): unknown => random.pick<unknown>([null, true, false, 0, 1, '', 'x', [], {}, [null], { a: 1 }]),
  /** arrays or objects nested `depth` levels (5,000 by default) */
  deep: (random: Random): RawJson => {
    const depth = random.pick([5000, 5001, 10_000]);
    switch (random.int(3)) {
      case 0:
        return new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`, `<${depth} nested arrays>`);
      case 1:
        return new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, `<${depth} nested objects>`);
      default:
        return new RawJson(`${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`, `<${depth} nested arrays and objects>`);
    }
  },
  /** a wide value: many keys or items (under the 64 KiB body limit) */
  wide: (random: Random): RawJson =>
    random.chance(0.5)
      ? new RawJson(`[${Array.from({ length: 15_000 }, () => '0').join(',')}]`, '<array of 15,000 items>')
      : new RawJson(`{${Array.from({ length: 4000 }, (_, i) => `"k${i}":0`).join(',')}}`, '<object of 4,000 keys>'),
};

/** Any hostile value at all. */
export function anyHostile(random: Random): unknown {
  const kinds = [HOSTILE.nul, HOSTILE.loneSurrogate, HOSTILE.prototypeName, HOSTILE.digits78, HOSTILE.number, HOSTILE.string, HOSTILE.wrongType, HOSTILE.deep];
  return random.pick(kinds)(random);
}

/** A key to add to an object: an `Object.prototype` name, text a database refuses, or a plain unknown field. */
export function hostileKey(random: Random): string {
  return random.pick([HOSTILE.prototypeName(random), HOSTILE.prototypeName(random), '\u0000', 'a\u0000', '\udc00', '', 'x'.repeat(1000), 'unknownField', 'durration']);
}

export type JsonPath = (string | number)[];

/** A place in a JSON value: where it is, and whether it holds other values. */
export interface JsonPlace {
  path: JsonPath;
  value: unknown;
  container: boolean;
}

/** Every place of a JSON value, the value itself first. */
export function jsonPlaces(value: unknown, path: JsonPath = []): JsonPlace[] {
  if (Array.isArray(value)) {
    return [{ path, value, container: true }, ...value.flatMap((inner, index) => jsonPlaces(inner, [...path, index]))];
  }
  if (value !== null && typeof value === 'object') {
    return [{ path, value, container: true }, ...Object.entries(value).flatMap(([key, inner]) => jsonPlaces(inner, [...path, key]))];
  }
  return [{ path, value, container: false }];
}

/** A copy of `root` with the value at `path` given by `change` (undefined removes it). Own `__proto__` keys are kept. */
export function withChange(root: unknown, path: JsonPath, change: (current: unknown) => unknown): unknown {
  if (path.length === 0) {
    return change(root);
  }
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    const next = withChange(copy[head as number], rest, change);
    if (next === undefined && rest.length === 0) {
      copy.splice(head as number, 1);
    } else {
      copy[head as number] = next;
    }
    return copy;
  }
  const entries = Object.entries(root as Record<string, unknown>).flatMap(([key, inner]): [string, unknown][] => {
    if (key !== head) {
      return [[key, inner]];
    }
    const next = withChange(inner, rest, change);
    return next === undefined && rest.length === 0 ? [] : [[key, next]];
  });
  // Object.fromEntries defines each key as an own property, `__proto__` included (a literal would set the prototype).
  return Object.fromEntries(entries);
}

/** `container` with one more member: a key of an object (kept if already there), an item of an array. */
export function withMember(container: unknown, key: string, value: unknown): unknown {
  if (Array.isArray(container)) {
    return [...container, value];
  }
  return Object.fromEntries([...Object.entries(container as Record<string, unknown>), [key, value]]);
}

/** `a.b[0]` for a report. */
export function pathText(path: JsonPath): string {
  return path.length === 0 ? '(body)' : path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}
