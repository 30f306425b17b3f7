import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@game-wallet/testing';

/** What `nx build <app>` bundled, from esbuild's metafile: the source files each output was made of. */
function bundledSources(app: string): string[] {
  const meta = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'apps', app, 'meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
  return Object.keys(meta.inputs);
}

const APPS = ['gateway', 'identity', 'wallet', 'core'] as const;

describe.each(APPS)('the %s bundle', (app) => {
  const sources = bundledSources(app);
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'apps', app, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };

  it('holds its own code and the libs it imports, and no other app, test code or test helpers', () => {
    expect(sources.some((file) => file.startsWith(`apps/${app}/src/`))).toBe(true);
    const foreign = sources.filter(
      (file) =>
        (file.startsWith('apps/') && !file.startsWith(`apps/${app}/src/`)) ||
        file.startsWith('libs/testing/') ||
        /\/test\/|\.spec\.ts$|\.e2e-spec\.ts$/.test(file),
    );
    expect(foreign).toEqual([]);
  });

  it('bundles no npm package: each one it imports is listed, with its locked version, in its package.json', () => {
    expect(sources.filter((file) => file.includes('node_modules/'))).toEqual([]);
    const workspace = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const devOnly = Object.keys(manifest.dependencies).filter((name) => name in workspace.devDependencies);
    expect(devOnly).toEqual([]);
    expect(existsSync(join(REPO_ROOT, 'dist', 'apps', app, 'package-lock.json'))).toBe(true);
  });
});

it('gives each app only the packages it imports: the gateway has no key-generation pool or mnemonic library', () => {
  const dependenciesOf = (app: string): string[] =>
    Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'apps', app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  expect(dependenciesOf('wallet')).toContain('piscina');
  expect(dependenciesOf('gateway')).not.toContain('piscina');
  expect(dependenciesOf('gateway')).not.toContain('@scure/bip39');
});
