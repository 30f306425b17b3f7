import { bodyProblem } from './json-body';

describe(bodyProblem.name, () => {
  const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

  it('holds every field of every body to 32 levels, named by field, however deep it goes', () => {
    expect(bodyProblem({ a: nested(32), b: 'x' })).toBeUndefined();
    expect(bodyProblem({ a: 1, b: nested(33) })).toBe('b: must not nest objects and arrays more than 32 levels deep');
    expect(bodyProblem({ message: nested(100_000) })).toBe('message: must not nest objects and arrays more than 32 levels deep');
  });

  it('refuses a string or key that is not well-formed Unicode anywhere in the body', () => {
    expect(bodyProblem({ name: '\udc00' })).toBe('name: must be well-formed Unicode (it holds a lone surrogate)');
    expect(bodyProblem({ ['\ud800']: 1 })).toBe('body: must be well-formed Unicode (it holds a lone surrogate)');
    expect(bodyProblem({ a: { b: ['ok', 'x\udfff'] } })).toBe('a.b.1: must be well-formed Unicode (it holds a lone surrogate)');
    expect(bodyProblem({ a: '😀', b: 'a\u0000b' })).toBeUndefined();
  });
});
