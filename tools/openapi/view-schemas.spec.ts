import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const { generateViewSchemas, serialise, OUTPUT } = require('./view-schemas.cjs') as {
  generateViewSchemas: () => Record<string, unknown>;
  serialise: (schemas: Record<string, unknown>) => string;
  OUTPUT: string;
};

describe('view-schemas.json', () => {
  it('matches the reply types it is generated from (run `npx nx run contracts:schemas` after changing them)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', OUTPUT), 'utf8');
    expect(committed).toBe(serialise(generateViewSchemas()));
  }, 30_000);
});
