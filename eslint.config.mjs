import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Where a test file lives: beside the code (`*.spec.ts`) or in a project's `test/` folder. */
const TEST_FILES = ['**/*.spec.ts', '**/*.spec.tsx', '**/*.e2e-spec.ts', '**/*.fault-spec.ts', '**/test/**/*.ts'];

/**
 * The module boundaries, for production source (`tests: false`) or for tests (`tests: true`), which alone may use
 * `libs/testing` (type:testing).
 */
function moduleBoundaries({ tests }) {
  const testing = tests ? ['type:testing'] : [];
  return [
    'error',
    {
      enforceBuildableLibDependency: true,
      allow: [],
      depConstraints: [
        // Libs by layer, each importing only the layers below it: the wire contract imports nothing of ours (said
        // outright: any lib at all is refused); the utilities (config, crypto, observability) know the contract;
        // infrastructure (transport, database) builds on both; the runtime (http, health) starts apps on the
        // infrastructure. The SDK ships to game backends with the contract only. Tests may use libs/testing, which
        // sits beside the infrastructure; production source never does.
        { sourceTag: 'type:contract', notDependOnLibsWithTags: ['*'] },
        { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contract', ...testing] },
        { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contract', 'type:util', ...testing] },
        { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:infra', 'type:runtime', ...testing] },
        { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:infra', 'type:runtime', ...testing] },
        { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:contract', ...testing] },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:infra'] },
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:infra', 'type:runtime', 'type:feature', 'type:app', ...testing] },
        // Build tooling and the transport's own suites may use any lib (tests and checks of what ships).
        { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:infra', 'type:runtime', 'type:feature', 'type:client', 'type:testing'] },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:infra', 'type:runtime', 'type:feature', 'type:client', 'type:testing'] },
        // The HTTP conventions (error shape, body limits, metrics route) serve the gateway too, which only calls
        // the transport: they must not need it.
        { sourceTag: 'role:http', notDependOnLibsWithTags: ['role:transport'] },
        // A lib of one app's scope (the gateway's auth) is that app's alone.
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
        { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
        { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:identity', 'scope:shared'] },
        { sourceTag: 'scope:wallet', onlyDependOnLibsWithTags: ['scope:wallet', 'scope:shared'] },
        { sourceTag: 'scope:core', onlyDependOnLibsWithTags: ['scope:core', 'scope:shared'] },
        { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:shared'] },
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.nx/**', 'coverage/**', 'apps/console/dist/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries({ tests: false }),
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-console': 'error',
      // Packages whose index runs a browser bundle in Node: the apps import only the part they need.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'swagger-ui-dist', message: "Its index runs Swagger UI's 4 MB browser bundle; import 'swagger-ui-dist/absolute-path'." }] },
      ],
    },
  },
  {
    // The web console runs in browsers: it shares the API's types (never code that needs Node.js) and renders what
    // the API returns as text only.
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    ignores: ['**/*.spec.ts', '**/*.spec.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@game-wallet/contracts', message: 'Import the browser-safe types from @game-wallet/contracts/views.' }],
          patterns: [
            {
              regex: '^@game-wallet/(?!contracts/(views|signing-rules|console-access|webhooks)$)',
              message: 'The console shares types only, the signing rules, the permission table and the webhook event catalogue (modules with no dependency).',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render what the API returns as text, never as HTML.' },
        { selector: "MemberExpression[property.name=/^(innerHTML|outerHTML)$/]", message: 'Render what the API returns as text, never as HTML.' },
        { selector: "MemberExpression[object.name=/^(localStorage|sessionStorage)$/]", message: 'The console keeps no secret or token in web storage.' },
      ],
    },
  },
  {
    files: TEST_FILES,
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off', '@nx/enforce-module-boundaries': moduleBoundaries({ tests: true }) },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    rules: { 'no-console': 'off' },
  },
);
