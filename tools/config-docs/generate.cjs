'use strict';
// docs/configuration.md, generated from each app's environment schema (apps/<app>/src/config.ts: every field carries
// its description) and the hand-written parts in tools/config-docs/configuration.md.tmpl. The schemas are TypeScript:
// esbuild bundles them with the page's renderer in memory (nothing built, no server), and the bundle runs here. A unit
// test regenerates the page and fails when the committed file is stale (`npm run docs:config` rewrites it).
const { buildSync } = require('esbuild');
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { join, resolve } = require('node:path');

const OUTPUT = join('docs', 'configuration.md');
// Not a .md file: the page's links are relative to docs/, where it is written, not to this folder.
const TEMPLATE = join('tools', 'config-docs', 'configuration.md.tmpl');
const APPS = ['gateway', 'identity', 'wallet', 'core'];

/** The page's text, from the sources under `root`. */
function generateConfigurationPage(root = resolve(__dirname, '..', '..')) {
  const entry = [
    ...APPS.map((app) => `export { ${app}EnvShape as ${app} } from './apps/${app}/src/config';`),
    "export { renderConfigurationPage } from './tools/config-docs/configuration-page';",
  ].join('\n');
  const { outputFiles } = buildSync({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'configuration-entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.base.json'),
    write: false,
    logLevel: 'error',
  });
  const filename = join(root, 'tools', 'config-docs', 'configuration-entry.js');
  const bundle = new Module(filename);
  bundle.filename = filename;
  bundle.paths = Module._nodeModulePaths(join(root, 'tools', 'config-docs'));
  bundle._compile(outputFiles[0].text, filename);
  const { renderConfigurationPage, ...shapes } = bundle.exports;
  return renderConfigurationPage(shapes, readFileSync(join(root, TEMPLATE), 'utf8'));
}

if (require.main === module) {
  const root = resolve(__dirname, '..', '..');
  writeFileSync(join(root, OUTPUT), generateConfigurationPage(root));
  console.log(`config-docs: ${OUTPUT} written`);
}

module.exports = { generateConfigurationPage, OUTPUT };
