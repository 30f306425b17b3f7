#!/usr/bin/env node
// Writes bench/results/latest.{md,svg} again from bench/results/latest.json (after a change to the report's layout).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root } from './lib/platform.mjs';
import { writeReport } from './lib/report.mjs';

const folder = join(root, 'bench', 'results');
console.log(await writeReport(folder, JSON.parse(await readFile(join(folder, 'latest.json'), 'utf8'))));
