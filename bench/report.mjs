#!/usr/bin/env node
// Writes bench/results/latest.{md,svg} again from bench/results/latest.json (after a change to the report's layout);
// `node bench/report.mjs signing` does the same for signing.json.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root } from './lib/platform.mjs';
import { writeReport } from './lib/report.mjs';

const folder = join(root, 'bench', 'results');
const name = process.argv[2] ?? 'latest';
console.log(await writeReport(folder, JSON.parse(await readFile(join(folder, `${name}.json`), 'utf8')), name));
