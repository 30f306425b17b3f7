/**
 * Four projects:
 * - unit:   *.spec.ts beside the code, no servers needed beyond what each spec states (the web console's run in vitest).
 * - e2e:    *.e2e-spec.ts under apps/<app>/test and libs/<lib>/test, against the real Postgres and Redis;
 *           each suite uses its own database and Redis key prefix so suites run in parallel.
 * - hsm:    the wallet and player end-to-end suites again, with the wallet's master keys in a SoftHSM2 token.
 * - faults: *.fault-spec.ts, suites that stop and restart Postgres or Redis; `npm test` runs them after the others, one at a time.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

// The run's own SoftHSM2 token store (never the machine's default), where suites make tokens of their own. A PKCS#11
// library reads SOFTHSM2_CONF from the real environment, which a test cannot change (Jest gives it a copy): set here,
// before Jest starts its test processes, every one of them inherits it.
const softhsm = join(tmpdir(), `gwt-softhsm-run-${process.pid}`);
mkdirSync(join(softhsm, 'tokens'), { recursive: true });
writeFileSync(join(softhsm, 'softhsm2.conf'), `directories.tokendir = ${join(softhsm, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
process.env.GWT_SOFTHSM_FOLDER = softhsm;
process.env.SOFTHSM2_CONF = join(softhsm, 'softhsm2.conf');
const { swcTypeScript } = require('./tools/swc-options.cjs');

const moduleNameMapper = Object.fromEntries(
  // Only the workspace's own libraries: other entries give the type checker a package's declarations (structured-headers).
  Object.entries(compilerOptions.paths).filter(([alias]) => alias.startsWith('@game-wallet/')).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    `<rootDir>/${target}`,
  ]),
);

const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: swcTypeScript }] };

const common = { rootDir: __dirname, testEnvironment: 'node', transform, moduleNameMapper, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  // A global option (projects cannot set it): end-to-end hooks start real apps and servers.
  testTimeout: 90000,
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.cjs'],
  projects: [
    // apps/console is a browser app: its unit tests run in vitest (see apps/console/vite.config.mts).
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/console/src/'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/{apps,libs}/*/test/**/*.e2e-spec.ts', '<rootDir>/tools/test/**/*.e2e-spec.ts'] },
    // The wallet and player suites again, with the wallet's master keys in a SoftHSM2 token (WALLET_MASTER_KEY_PROVIDER=pkcs11);
    // custody.e2e-spec and chain-keys.e2e-spec open rows with environment keys, and hsm.e2e-spec sets up its own token
    // (and checks sealed chain keys and their backfill under it).
    {
      ...common,
      displayName: 'hsm',
      testMatch: ['<rootDir>/apps/{wallet,core}/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/custody\\.e2e-spec\\.ts$', '/chain-keys\\.e2e-spec\\.ts$', '/hsm\\.e2e-spec\\.ts$'],
      setupFiles: ['<rootDir>/libs/testing/src/hsm-setup.ts'],
    },
    { ...common, displayName: 'faults', testMatch: ['<rootDir>/{apps,libs}/*/test/**/*.fault-spec.ts'] },
  ],
};
