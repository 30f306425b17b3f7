import { AppError } from '@game-wallet/contracts';
import { MAX_USER_DATA_DEPTH, nestsDeeperThan, parseCreatePlayer } from './player-input';

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

describe(nestsDeeperThan.name, () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestsDeeperThan({ a: 1, b: 'x', c: null }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [] }, 1)).toBe(true);
    expect(nestsDeeperThan([[[]]], 3)).toBe(false);
    expect(nestsDeeperThan([[[]]], 2)).toBe(true);
  });
});
