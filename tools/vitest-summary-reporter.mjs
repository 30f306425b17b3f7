// Appends the console's vitest totals to JEST_SUMMARY_FILE (when set), in the jest summary reporter's format, so
// `.ci/run` prints one closing "N passed, N failed" line over every test runner; and each failed test's name to
// JEST_FAILURES_FILE (when set).
import { appendFileSync } from 'node:fs';

export default class SummaryReporter {
  onTestRunEnd(testModules) {
    const file = process.env.JEST_SUMMARY_FILE;
    if (!file) {
      return;
    }
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed') {
          counts[state] += 1;
          if (state === 'failed' && process.env.JEST_FAILURES_FILE) {
            appendFileSync(process.env.JEST_FAILURES_FILE, `${module.moduleId} › ${test.fullName}\n`);
          }
        } else {
          counts.skipped += 1;
        }
      }
    }
    appendFileSync(file, `${counts.passed} ${counts.failed} ${counts.skipped}\n`);
  }
}
