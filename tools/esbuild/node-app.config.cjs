// esbuild settings of every Node app's bundle (`nx build <app>`, @nx/esbuild). esbuild strips TypeScript itself but
// cannot emit decorator metadata, which NestJS's dependency injection reads (`design:paramtypes`): TypeScript files
// are therefore compiled by SWC (the compiler the tests run on) and esbuild only bundles the JavaScript that results.
const { readFile } = require('node:fs/promises');
const { transform } = require('@swc/core');
const { swcTypeScript } = require('../swc-options.cjs');

const swcOptions = {
  sourceMaps: 'inline',
  // CommonJS: decorator metadata refers to imported types, which an ES module import would fail to resolve.
  module: { type: 'commonjs' },
  jsc: swcTypeScript,
};

/** @type {import('esbuild').Plugin} */
const swcDecorators = {
  name: 'swc-decorators',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const { code } = await transform(source, { ...swcOptions, filename: path });
      return { contents: code, loader: 'js' };
    });
  },
};

/** @type {import('esbuild').BuildOptions} */
module.exports = {
  plugins: [swcDecorators],
  // Class names are kept: Nest names providers and log contexts after them.
  keepNames: true,
  // `main.js`, as Node reads CommonJS from .js files (the generated package.json says "type": "commonjs").
  outExtension: { '.js': '.js' },
  // Dependencies stay in node_modules (listed in the generated package.json); optional ones that some packages
  // probe for (NestJS's and TypeORM's drivers and adapters) are not installed and must not be resolved at build time.
  logOverride: { 'require-resolve-not-external': 'silent' },
};
