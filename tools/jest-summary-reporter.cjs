// Appends each jest run's totals to JEST_SUMMARY_FILE (when set), so a script running several jest invocations can
// print one closing "N passed, N failed" line.
const { appendFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.JEST_SUMMARY_FILE;
    if (file) {
      appendFileSync(file, `${results.numPassedTests} ${results.numFailedTests} ${results.numPendingTests}\n`);
    }
  }
}

module.exports = SummaryReporter;
