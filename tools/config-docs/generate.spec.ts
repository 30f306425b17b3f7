import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const { generateConfigurationPage, OUTPUT } = require('./generate.cjs') as { generateConfigurationPage: () => string; OUTPUT: string };

describe('docs/configuration.md', () => {
  it('matches the apps\' environment schemas and the template it is generated from (run `npm run docs:config` after changing them)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', OUTPUT), 'utf8');
    expect(committed).toBe(generateConfigurationPage());
  }, 30_000);
});
