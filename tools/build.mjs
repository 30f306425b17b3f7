// Compiles every app and lib (sources and test fixtures, not specs) to dist/ with SWC, and builds the web console
// (apps/console, a browser app) with Vite into dist/apps/console, each text file also precompressed (.br, .gz).
// Path aliases (@game-wallet/*) are rewritten to relative requires, so dist/ runs with plain `node`.
import { transformFile } from '@swc/core';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist');
const { compilerOptions } = JSON.parse(
  await import('node:fs').then((fs) => fs.readFileSync(join(root, 'tsconfig.base.json'), 'utf8')),
);

const swcOptions = {
  sourceMaps: true,
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    keepClassNames: true,
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    baseUrl: root,
    paths: compilerOptions.paths,
  },
};

const BROWSER_APPS = new Set([join(root, 'apps', 'console')]);

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !BROWSER_APPS.has(path)) yield* sources(path);
    } else if (entry.name.endsWith('.ts') && !/\.(spec|e2e-spec|d)\.ts$/.test(entry.name)) {
      yield path;
    }
  }
}

const started = Date.now();
await rm(outDir, { recursive: true, force: true });
let count = 0;
const jobs = [];
for (const top of ['apps', 'libs']) {
  for await (const file of sources(join(root, top))) {
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    jobs.push(
      transformFile(file, { ...swcOptions, filename: file, outputPath: target }).then(async (out) => {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, `${out.code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
        if (out.map) await writeFile(`${target}.map`, out.map);
        count += 1;
      }),
    );
  }
}
await Promise.all(jobs);
console.log(`build: ${count} files compiled to dist/ in ${Date.now() - started} ms`);

const consoleStarted = Date.now();
const { build } = await import('vite');
await build({ configFile: join(root, 'apps/console/vite.config.mts'), logLevel: 'warn' });
const consoleDir = join(outDir, 'apps/console');
const compressible = /\.(js|css|html|svg|json|txt)$/;
let compressed = 0;
async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}
for await (const file of files(consoleDir)) {
  if (compressible.test(file) && (await stat(file)).size >= 1024) {
    const content = await readFile(file);
    const [br, gz] = await Promise.all([
      promisify(brotliCompress)(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }),
      promisify(gzip)(content, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    compressed += 1;
  }
}
console.log(`build: web console built to dist/apps/console in ${Date.now() - consoleStarted} ms (${compressed} files precompressed)`);
