// Checks the deployment files: node tools/deploy-check/index.mjs (k8s/README.md, "Checks"). Exits 1 on any problem.
import { performance } from 'node:perf_hooks';
import deployCheck from './deploy-check.cjs';

const started = performance.now();
const results = await deployCheck.runChecks();
for (const { name, problems } of results) {
  console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name}${problems.length === 0 ? '' : ` (${problems.length})`}`);
  for (const problem of problems) {
    console.log(`       ${problem}`);
  }
}
const failed = results.filter(({ problems }) => problems.length > 0);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  failed.length === 0
    ? `deploy-check: all ${results.length} checks passed (${seconds} s)`
    : `deploy-check: ${failed.length} of ${results.length} checks failed: ${failed.map(({ name }) => name).join(', ')} (${seconds} s)`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
