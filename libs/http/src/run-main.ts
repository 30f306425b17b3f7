import { ConfigError } from '@game-wallet/config';

/**
 * Runs an app's `main`. A configuration error prints one line per bad variable and exits 1; any other start failure
 * prints its message and exits 1. Written straight to stderr: the logger may not exist yet.
 */
export function runMain(app: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) {
        process.stderr.write(`${app}: invalid configuration: ${problem}\n`);
      }
    } else {
      process.stderr.write(`${app}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  });
}
