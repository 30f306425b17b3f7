// Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of 1 KiB or more in a folder (the built web
// console), so the gateway serves them compressed without compressing on each request.
//   node tools/precompress.mjs dist/apps/console
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const dir = resolve(process.argv[2] ?? '');
const compressible = /\.(js|css|html|svg|json|txt)$/;

async function* files(folder) {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

let compressed = 0;
for await (const file of files(dir)) {
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
console.log(`precompress: ${compressed} files in ${dir}`);
