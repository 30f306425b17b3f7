// Finishes the package.json that `nx run <app>:bundle` generates beside an app's bundle (only the packages the app
// imports, with a pruned lockfile), so that `npm ci --omit=dev` installs exactly them in the app's image:
// - keeps the workspace's override of a package the app also depends on directly (Nx drops those as redundant, but
//   npm ci then finds the lockfile out of step with a dependency that pins another version, e.g. Fastify);
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
const overrides = Object.fromEntries(
  Object.entries(workspace.overrides ?? {}).filter(([name, spec]) => name in dependencies && dependencies[name] === spec),
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
