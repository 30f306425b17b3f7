'use strict';
/** Rendering the kustomize overlays, and reading the YAML under k8s/ (Secret templates are not rendered). */
const { execFile } = require('node:child_process');
const { existsSync, readFileSync, readdirSync } = require('node:fs');
const { join, relative } = require('node:path');
const YAML = require('yaml');

const isKustomization = (dir) => ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].some((file) => existsSync(join(dir, file)));

/** Kustomizations directly under `dir` (k8s/overlays/*, k8s/base/*). */
function kustomizationsIn(dir) {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isKustomization(join(dir, entry.name)))
    .map((entry) => join(dir, entry.name));
}

function kustomize(dir) {
  return new Promise((resolve) => {
    execFile('kubectl', ['kustomize', dir], { maxBuffer: 32 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) {
        const detail = (stderr || error.message).trim().split('\n').slice(0, 3).join(' / ');
        resolve({ error: error.code === 'ENOENT' ? 'kubectl is not installed (kubectl kustomize renders the overlays)' : detail });
        return;
      }
      resolve({ objects: YAML.parseAllDocuments(stdout).map((document) => document.toJSON()).filter(Boolean) });
    });
  });
}

/**
 * Renders every overlay (and, so that each app can be built on its own, every base). Returns the overlays' objects
 * and one problem per kustomization that does not render.
 */
async function renderAll(k8sDir) {
  const overlays = kustomizationsIn(join(k8sDir, 'overlays'));
  const bases = kustomizationsIn(join(k8sDir, 'base'));
  const problems = overlays.length === 0 ? [`no overlay under ${join(k8sDir, 'overlays')}`] : [];
  const results = await Promise.all([...overlays, ...bases].map(async (dir) => ({ dir, ...(await kustomize(dir)) })));
  const renderings = [];
  for (const { dir, error, objects } of results) {
    const name = relative(k8sDir, dir);
    if (error) {
      problems.push(`${name}: kubectl kustomize failed: ${error}`);
    } else if (overlays.includes(dir)) {
      renderings.push({ overlay: name, objects });
    }
  }
  return { renderings, problems };
}

/** Every YAML document of every file under `dir`, with its file; files that do not parse are skipped. */
function yamlDocuments(dir) {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .flatMap((entry) => {
      const file = join(entry.parentPath ?? entry.path, entry.name);
      try {
        return YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((document) => ({ file, object: document.toJSON() }));
      } catch {
        return [];
      }
    })
    .filter(({ object }) => object !== null && typeof object === 'object' && !Array.isArray(object));
}

module.exports = { renderAll, yamlDocuments };
