import { AppError } from '@game-wallet/contracts';
import { MAX_USER_DATA_DEPTH, parseCreatePlayer } from './player-input';

/** `levels` levels of nesting, userData itself included: {a: [{a: [...]}]}. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 'leaf';
  for (let level = levels; level > 1; level -= 1) {
    value = level % 2 === 0 ? [value] : { a: value };
  }
  return { a: value };
}

describe(parseCreatePlayer.name, () => {
  it('takes userData nested exactly 32 levels deep', () => {
    expect(parseCreatePlayer({ uniqueId: 'p', userData: nested(MAX_USER_DATA_DEPTH) }).userData).toEqual(nested(MAX_USER_DATA_DEPTH));
  });

  it.each([[33], [5000]])('refuses userData nested %i levels deep with VALIDATION_FAILED', (levels) => {
    expect(() => parseCreatePlayer({ uniqueId: 'p', userData: nested(levels) })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: 'userData: must not nest objects and arrays more than 32 levels deep' }) as AppError,
    );
  });
});

describe(`${parseCreatePlayer.name}: text PostgreSQL cannot store`, () => {
  it.each([
    ['NUL in a value', { note: 'a\u0000b' }, 'userData.note: must not contain NUL (\\u0000)'],
    ['NUL in a key', { ['a\u0000']: 1 }, 'userData: a key must not contain NUL (\\u0000)'],
    ['a lone surrogate', { list: ['ok', '\udc00'] }, 'userData.list.1: must be well-formed Unicode (it holds a lone surrogate)'],
    ['an array of 1,025 items', { list: new Array(1025).fill(0) }, 'userData.list: must have at most 1024 items'],
  ])('refuses %s with VALIDATION_FAILED naming where it is (PostgreSQL jsonb cannot hold it)', (_, userData, message) => {
    expect(() => parseCreatePlayer({ uniqueId: 'p', userData })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message }) as AppError);
  });

  it('refuses control characters in an image URL', () => {
    expect(() => parseCreatePlayer({ uniqueId: 'p', image: 'https://cdn.example/a\u0000.png' })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }) as AppError);
  });
});
