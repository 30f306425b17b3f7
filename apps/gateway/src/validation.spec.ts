import { z } from 'zod';
import { parseCreatePlayer } from './players/player-input';
import { nameField, parseBody } from './validation';

describe('control characters', () => {
  const names = z.object({ name: nameField }).strict();

  it.each([['\u0007 bell'], ['tab\there'], ['del\u007f'], ['next line\u0085'], ['csi\u009b']])('are refused in a name and in a uniqueId alike: %j', (value) => {
    expect(() => parseBody(names, { name: value })).toThrow('name: must not contain control characters');
    expect(() => parseCreatePlayer({ uniqueId: value })).toThrow('uniqueId: must not contain control characters');
  });

  it('leave other text alone', () => {
    expect(parseBody(names, { name: ' Space Miners ✓ ' })).toEqual({ name: 'Space Miners ✓' });
    expect(parseCreatePlayer({ uniqueId: 'ünï-cødé 42' }).uniqueId).toBe('ünï-cødé 42');
  });
});
