import { describe, expect, it } from 'vitest';
import { nextPath, signInPathFor } from './next-path';

describe('nextPath', () => {
  it('returns to the console page that was asked for', () => {
    expect(nextPath('?next=%2Fgames%2Fabc%2Fplayers%3Fx%3D1')).toBe('/games/abc/players?x=1');
  });

  it.each([['//evil.example/x'], ['https://evil.example'], ['/\\evil.example'], ['javascript:alert(1)'], ['/sign-in'], ['']])(
    'never leaves the console for next=%s',
    (next) => {
      expect(nextPath(`?next=${encodeURIComponent(next)}`)).toBe('/');
    },
  );
});

describe('signInPathFor', () => {
  it('carries the current page, query included', () => {
    expect(signInPathFor('/games/abc/audit', '?p=2')).toBe('/sign-in?next=%2Fgames%2Fabc%2Faudit%3Fp%3D2');
    expect(signInPathFor('/', '')).toBe('/sign-in');
  });
});
