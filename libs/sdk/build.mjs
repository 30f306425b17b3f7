// Builds @game-wallet/sdk into dist/libs/sdk (`nx build sdk`): ESM (index.js) and CommonJS (index.cjs) bundles made by
// esbuild for Node.js 18+ and browsers, and self-contained declarations (index.d.ts, index.d.cts) made by
// dts-bundle-generator: the contracts types the SDK uses are inlined, so the package depends on nothing.
import { build } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', '..', 'dist', 'libs', 'sdk');
const entry = join(here, 'src', 'index.ts');
const tsconfig = join(here, 'tsconfig.lib.json');

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const common = { entryPoints: [entry], bundle: true, platform: 'neutral', target: 'es2020', tsconfig, treeShaking: true, logLevel: 'warning' };
await Promise.all([
  build({ ...common, format: 'esm', outfile: join(outDir, 'index.js') }),
  build({ ...common, format: 'cjs', outfile: join(outDir, 'index.cjs') }),
]);
const [declarations] = generateDtsBundle([{ filePath: entry, output: { noBanner: true, exportReferencedTypes: false } }], { preferredConfigPath: tsconfig });
if (/@game-wallet\//.test(declarations)) {
  throw new Error('The declarations still import a workspace library: it must be inlined');
}
await Promise.all([
  writeFile(join(outDir, 'index.d.ts'), declarations),
  writeFile(join(outDir, 'index.d.cts'), declarations),
  copyFile(join(here, 'package.json'), join(outDir, 'package.json')),
  copyFile(join(here, 'README.md'), join(outDir, 'README.md')),
]);
console.log(`sdk: built into ${outDir}`);
