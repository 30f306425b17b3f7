'use strict';
// Removes `typescript` from an app's production node_modules (the Dockerfile's deps stage), where npm installs it only
// because type-level tools declare it as a peer: gql.tada and its helpers (@mysten/sui → gql.tada), whose code at run
// time never loads it. Refuses (exit 1) when any other installed package needs it: a dependency, or a peer it does
// not mark optional. Then checks that gql.tada, when installed, still loads both ways without it.
//   node prune-typescript.cjs <app folder>
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { execFileSync } = require('node:child_process');

/** Packages whose peer dependency on typescript is for type checking and editor plugins only. */
const TYPE_TOOLING = new Set(['gql.tada', '@gql.tada/internal', '@gql.tada/cli-utils', '@0no-co/graphqlsp']);

const app = resolve(process.argv[2] ?? '.');
const installed = join(app, 'node_modules', 'typescript');
if (!existsSync(installed)) {
  process.exit(0);
}
const lock = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8')).packages;
const own = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
const needs = [];
if (own.dependencies?.typescript) {
  needs.push(`${own.name} (dependencies)`);
}
for (const [path, entry] of Object.entries(lock)) {
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  if (entry.dependencies?.typescript || entry.optionalDependencies?.typescript) {
    needs.push(`${name} (dependencies)`);
  } else if (entry.peerDependencies?.typescript && !entry.peerDependenciesMeta?.typescript?.optional && !TYPE_TOOLING.has(name)) {
    needs.push(`${name} (peerDependencies)`);
  }
}
if (needs.length > 0) {
  console.error(`prune-typescript: typescript is needed by ${needs.join(', ')}; not removed`);
  process.exit(1);
}
rmSync(installed, { recursive: true, force: true });
for (const bin of ['tsc', 'tsserver']) {
  rmSync(join(app, 'node_modules', '.bin', bin), { force: true });
}
if (existsSync(join(app, 'node_modules', 'gql.tada'))) {
  execFileSync(process.execPath, ['-e', "require('gql.tada'); import('gql.tada').catch((error) => { console.error(error); process.exit(1); })"], { cwd: app, stdio: 'inherit' });
}
console.log('prune-typescript: removed typescript (a peer of type-level tools only)');
