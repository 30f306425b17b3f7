import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleRolesTable } from './console-roles-table';

describe(consoleRolesTable.name, () => {
  it("is the README's table of what each console role may do", () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    expect(readme).toContain(`${consoleRolesTable()}\n`);
  });
});
