import { parseDuration } from './authenticate-body';

describe(parseDuration.name, () => {
  it.each([
    [{}, 3600],
    [{ duration: null }, 3600],
    [{ duration: 60 }, 60],
    [{ duration: 2592000 }, 2592000],
  ])('accepts %p as %p seconds', (body, seconds) => {
    expect(parseDuration(body)).toBe(seconds);
  });

  it.each([[{ duration: 59 }], [{ duration: 2592001 }], [{ duration: 1.5 }], [{ duration: '60' }], [{ duration: true }], [{ duration: [] }]])(
    'refuses %p with INVALID_DURATION',
    (body) => {
      expect(() => parseDuration(body)).toThrow(expect.objectContaining({ code: 'INVALID_DURATION', status: 400 }));
    },
  );

  it('refuses an unknown field (a typo) with VALIDATION_FAILED', () => {
    expect(() => parseDuration({ durration: 60 })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message: 'unknown field durration' }));
  });

  it.each([[undefined], [null], [[]], ['60']])('refuses a body that is not an object (%p)', (body) => {
    expect(() => parseDuration(body)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
