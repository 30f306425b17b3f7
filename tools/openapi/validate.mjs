// Validates OpenAPI documents against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator), resolving every
// $ref. Prints one line per document; exits 1 when one is invalid.
//   node tools/openapi/validate.mjs base.json core.json
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFile } from 'node:fs/promises';

let failed = false;
for (const file of process.argv.slice(2)) {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(await readFile(file, 'utf8')));
  if (result.valid && validator.version === '3.1') {
    console.log(`valid OpenAPI ${validator.version}: ${file}`);
  } else {
    failed = true;
    console.log(`INVALID (${validator.version}): ${file}: ${JSON.stringify(result.errors, null, 2)}`);
  }
}
process.exit(failed ? 1 : 0);
