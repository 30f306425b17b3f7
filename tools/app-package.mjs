// Finishes the package.json that `nx run <app>:bundle` generates beside an app's bundle (only the packages the app
// imports, with a pruned lockfile), so that `npm ci --omit=dev` installs exactly them in the app's image:
// - keeps the workspace's override of a package the app also depends on directly (Nx drops those as redundant, but
//   npm ci then finds the lockfile out of step with a dependency that pins another version, e.g. Fastify), and each
//   override of a package's own dependencies (`"@solana/errors": { "commander": "14.0.3" }`) when that package is in
//   the app's lockfile (Nx drops those too, and npm ci refuses the locked version the override chose);
// - names the package after the app and gives it the workspace's version and engines.
//   node tools/app-package.mjs <app>
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const app = process.argv[2];
const file = join(root, 'dist', 'apps', app ?? '', 'package.json');
const workspace = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const generated = JSON.parse(readFileSync(file, 'utf8'));

const dependencies = generated.dependencies ?? {};
const lockfile = JSON.parse(readFileSync(join(dirname(file), 'package-lock.json'), 'utf8'));
const locked = new Set(Object.keys(lockfile.packages ?? {}).map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)));
const overrides = Object.fromEntries(
  Object.entries(workspace.overrides ?? {}).filter(([name, spec]) =>
    typeof spec === 'object' ? locked.has(name) : name in dependencies && dependencies[name] === spec,
  ),
);
const { overrides: _dropped, ...rest } = generated;
const finished = {
  ...rest,
  name: `@game-wallet/${app}`,
  version: workspace.version,
  private: true,
  engines: workspace.engines,
  ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
};
writeFileSync(file, `${JSON.stringify(finished, null, 2)}\n`);
