// Compiles every app and lib file by file (sources and test fixtures, not specs) to dist/out-tsc with SWC, for what
// runs the workspace's code outside the apps' bundles: test fixtures, the launcher `npm start` uses, benchmarks and the
// drill (`nx run tools:compile`).
// The apps that ship are bundled by `nx build <app>` instead. Path aliases (@game-wallet/*) are rewritten to relative
// requires, so dist/out-tsc runs with plain `node`.
import { transformFile } from '@swc/core';
import { createRequire } from 'node:module';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { swcTypeScript } = createRequire(import.meta.url)('./swc-options.cjs');
const outDir = join(root, 'dist', 'out-tsc');
const { compilerOptions } = JSON.parse(
  await import('node:fs').then((fs) => fs.readFileSync(join(root, 'tsconfig.base.json'), 'utf8')),
);

const swcOptions = {
  sourceMaps: true,
  module: { type: 'commonjs' },
  jsc: {
    ...swcTypeScript,
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
console.log(`compile: ${count} files compiled to dist/out-tsc in ${Date.now() - started} ms`);
