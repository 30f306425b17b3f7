/**
 * Checks a game's audit export (`GET /v1/console/games/{id}/audit/export`, NDJSON) against its hash chains, and names
 * the first row that was changed, removed or reordered:
 *
 *   npm run audit:verify -- audit.ndjson          (in the identity image: node cli/audit-verify.js audit.ndjson)
 *
 * Exits 0 when every row holds, 1 at the first that does not (one line saying which and why), 2 when the file cannot
 * be read. Reads the file line by line (a line of at most 1,000,000 characters): any size, in little memory.
 */
import { verifyAuditExport } from '@game-wallet/crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const USAGE = 'usage: audit-verify <file.ndjson>   ("-" reads standard input)';

async function main(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2);
  if (file === undefined || rest.length > 0 || file === '--help') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const input = file === '-' ? process.stdin : createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let result;
  try {
    result = await verifyAuditExport(lines);
  } catch (error) {
    process.stderr.write(`audit-verify: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const counts = Object.entries(result.rows)
    .map(([chain, count]) => `${chain} ${count}`)
    .join(', ');
  if (result.problem !== undefined) {
    process.stdout.write(`audit-verify: FAILED at ${result.problem.message} [${result.problem.kind}]; the rows before it hold (${counts || 'none'})\n`);
    return 1;
  }
  process.stdout.write(`audit-verify: every row holds (${counts || 'no rows'})\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`audit-verify: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
