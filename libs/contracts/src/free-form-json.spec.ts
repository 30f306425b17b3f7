import { FREE_FORM_JSON_LIMITS, freeFormJsonProblem } from './free-form-json';

describe(freeFormJsonProblem.name, () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let level = 1; level < levels; level += 1) {
      value = level % 2 === 0 ? [value] : { a: value };
    }
    return { a: value };
  };

  it('counts the value itself as level 1 and each object or array inside one more, scalars not at all', () => {
    expect(freeFormJsonProblem(nested(32), 'userData')).toBeUndefined();
    expect(freeFormJsonProblem(nested(33), 'userData')).toBe('userData: must not nest objects and arrays more than 32 levels deep');
    expect(freeFormJsonProblem({ a: 1, b: 'x', c: null, d: true }, 'x', { ...FREE_FORM_JSON_LIMITS, maxDepth: 1 })).toBeUndefined();
  });

  it('measures 100,000 levels without recursing', () => {
    let value: unknown = [];
    for (let level = 0; level < 100_000; level += 1) {
      value = [value];
    }
    expect(freeFormJsonProblem(value, 'message')).toBe('message: must not nest objects and arrays more than 32 levels deep');
  });

  it('caps the entries of one object or array and the values in all, naming where', () => {
    expect(freeFormJsonProblem({ list: new Array(1024).fill(0) }, 'm')).toBeUndefined();
    expect(freeFormJsonProblem({ list: new Array(1025).fill(0) }, 'm')).toBe('m.list: must have at most 1024 items');
    expect(freeFormJsonProblem(Object.fromEntries(Array.from({ length: 1025 }, (_, index) => [`k${index}`, 0])), 'm')).toBe('m: must have at most 1024 keys');
    const wide = Array.from({ length: 20 }, () => new Array(1000).fill(0));
    expect(freeFormJsonProblem({ wide }, 'm')).toBe('m: must hold at most 10000 values in all');
  });

  it('refuses lone surrogates in strings and keys, and NUL when asked to', () => {
    expect(freeFormJsonProblem({ a: ['ok', 'x\udc00'] }, 'm')).toBe('m.a.1: must be well-formed Unicode (it holds a lone surrogate)');
    expect(freeFormJsonProblem({ ['\ud800']: 1 }, 'm')).toBe('m: a key must be well-formed Unicode (it holds a lone surrogate)');
    expect(freeFormJsonProblem({ a: 'x\u0000' }, 'm')).toBeUndefined();
    expect(freeFormJsonProblem({ a: { b: 'x\u0000' } }, 'm', { ...FREE_FORM_JSON_LIMITS, refuseNul: true })).toBe('m.a.b: must not contain NUL (\\u0000)');
    expect(freeFormJsonProblem({ a: '😀 é' }, 'm', { ...FREE_FORM_JSON_LIMITS, refuseNul: true })).toBeUndefined();
  });
});
