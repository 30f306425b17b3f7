'use strict';
/**
 * How SWC compiles the workspace's TypeScript, the same for the tests (@swc/jest), the apps' bundles and the
 * file-by-file copy in dist/out-tsc: ES2022, legacy decorators with their metadata (NestJS's dependency injection
 * reads `design:paramtypes`), class names kept (Nest names providers and log contexts after them).
 */
const swcTypeScript = {
  target: 'es2022',
  keepClassNames: true,
  parser: { syntax: 'typescript', decorators: true },
  transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
};

module.exports = { swcTypeScript };
