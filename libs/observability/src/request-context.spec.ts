import { acceptOrGenerateRequestId, currentRequestId, runWithRequestId } from './request-context';

describe(acceptOrGenerateRequestId.name, () => {
  it('keeps a client id of 1-128 printable characters', () => {
    expect(acceptOrGenerateRequestId('abc-123_x.y')).toBe('abc-123_x.y');
    expect(acceptOrGenerateRequestId('a'.repeat(128))).toBe('a'.repeat(128));
  });

  it.each([['a'.repeat(129)], [''], ['has space'], ['line\nbreak'], [undefined], [['array']]])('replaces %p with a generated UUID', (value) => {
    expect(acceptOrGenerateRequestId(value)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe(runWithRequestId.name, () => {
  it('exposes the id to async continuations inside, and not outside', async () => {
    const seen = await runWithRequestId('r-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentRequestId();
    });
    expect(seen).toBe('r-1');
    expect(currentRequestId()).toBeUndefined();
  });
});
