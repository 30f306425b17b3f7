// Checks the relative links of every Markdown page in the repository (README.md, docs/, k8s/, bench/, libs/sdk/…):
// the file each one names must exist, and a #heading must be a heading of that page. Offline: links to other sites are
// not followed. node tools/docs/check-links.mjs [folder] (default: the repository). Exits 1 on any broken link.
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remark } from 'remark';
import remarkValidateLinks from 'remark-validate-links';
import { engine } from 'unified-engine';

// Folders never read: installed packages, build output, caches, generated test output and development data.
const SKIP = new Set(['node_modules', 'dist', 'coverage', 'test-output']);

/** Every `.md` file under `root`, as paths relative to it (folders starting with a dot skipped). */
function markdownFiles(root, folder = root) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) {
      return [];
    }
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return markdownFiles(root, path);
    }
    return entry.isFile() && entry.name.endsWith('.md') ? [relative(root, path)] : [];
  });
}

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const files = markdownFiles(root);

engine(
  {
    processor: remark(),
    cwd: root,
    files,
    extensions: ['md'],
    // The pages are checked together, so a link to another page's heading is checked against that page's headings.
    // `repository: false`: links are checked as files of this folder, whatever Git remote it has (or none).
    plugins: [[remarkValidateLinks, { repository: false, root }]],
    detectConfig: false,
    detectIgnore: false,
    output: false,
    out: false,
    quiet: true,
    frail: true,
    color: false,
  },
  (error, code) => {
    if (error) {
      console.error(error);
      process.exitCode = 1;
      return;
    }
    if (code === 0) {
      console.log(`${files.length} Markdown files: every relative link and anchor resolves`);
    }
    process.exitCode = code ?? 1;
  },
);
