import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CHECKER = join(__dirname, 'check-links.mjs');

/** Runs the checker (an ES module, so in a process of its own) over a folder. */
function checkLinks(folder: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [CHECKER, folder], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A folder of Markdown pages: `files` maps a path to its text. */
function pages(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-links-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const API_PAGE = '# API\n\nFor game developers. [Back](../README.md#game-wallet)\n\n## Errors and retries\n\nRetry a 503.\n';

describe('Markdown links (tools/docs/check-links.mjs)', () => {
  const folders: string[] = [];
  const check = (files: Record<string, string>) => {
    const dir = pages(files);
    folders.push(dir);
    return checkLinks(dir);
  };
  afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('finds every relative link and anchor of the README, docs/ and the other pages of the repository', () => {
    const { status, output } = checkLinks(ROOT);
    expect(output).not.toContain('warning');
    expect(status).toBe(0);
  });

  it('accepts links to pages, their headings, headings of the same page and files, and never follows other sites', () => {
    const { status, output } = check({
      'README.md':
        '# Game Wallet\n\n## Docs\n\n[API](docs/api.md), [retries](docs/api.md#errors-and-retries), [docs](#docs), ' +
        '[picture](docs/shot.png), [elsewhere](https://example.invalid/page#nowhere)\n',
      'docs/api.md': API_PAGE,
      'docs/shot.png': 'png',
    });
    expect(output).not.toContain('warning');
    expect(status).toBe(0);
  });

  it('fails on a link to a page that does not exist', () => {
    const { status, output } = check({ 'README.md': '# Game Wallet\n\nSee [operations](docs/operations.md).\n', 'docs/api.md': API_PAGE });
    expect(status).toBe(1);
    expect(output).toContain('Cannot find file `docs/operations.md`');
  });

  it('fails on an anchor that is no heading of the page it names', () => {
    const { status, output } = check({ 'README.md': '# Game Wallet\n\nSee [retries](docs/api.md#retries).\n', 'docs/api.md': API_PAGE });
    expect(status).toBe(1);
    expect(output).toContain('Cannot find heading for `#retries` in `docs/api.md`');
  });

  it('fails on an anchor that is no heading of its own page', () => {
    const { status, output } = check({ 'README.md': '# Game Wallet\n\nSee [below](#keys-in-an-hsm).\n' });
    expect(status).toBe(1);
    expect(output).toContain('Cannot find heading for `#keys-in-an-hsm`');
  });

  it('fails on a link from a page in a folder that climbs to a missing file', () => {
    const { status, output } = check({ 'README.md': '# Game Wallet\n', 'k8s/README.md': '# Kubernetes\n\n[HSM](../docs/deployment.md#keys-in-an-hsm)\n' });
    expect(status).toBe(1);
    expect(output).toContain('Cannot find file `../docs/deployment.md`');
  });
});
