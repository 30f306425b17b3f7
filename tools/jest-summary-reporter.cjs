// Appends each jest run's totals to JEST_SUMMARY_FILE (when set), so a script running several jest invocations can
// print one closing "N passed, N failed" line; and the name of each failed test, with the first line of its error, to
// JEST_FAILURES_FILE (when set), so that line can be followed by what failed even when the log is cut.
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');

const firstLine = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim()) ?? '';

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.JEST_SUMMARY_FILE;
    if (file) {
      appendFileSync(file, `${results.numPassedTests} ${results.numFailedTests} ${results.numPendingTests}\n`);
    }
    const failures = process.env.JEST_FAILURES_FILE;
    if (!failures) {
      return;
    }
    for (const suite of results.testResults) {
      const path = relative(process.cwd(), suite.testFilePath);
      if (suite.testExecError) {
        appendFileSync(failures, `${path}: the suite did not run: ${firstLine(suite.testExecError.message)}\n`);
      }
      for (const test of suite.testResults.filter((result) => result.status === 'failed')) {
        appendFileSync(failures, `${path} › ${test.fullName}: ${firstLine(test.failureMessages[0])}\n`);
      }
    }
  }
}

module.exports = SummaryReporter;
