'use strict';
/**
 * Checks of what deploys the platform: the kustomize overlays under k8s/, docker-compose.yml and the Dockerfile.
 * `runChecks` runs them all; each check is also exported on its own. A check returns its problems, one line each.
 */
const { join, resolve } = require('node:path');
const { appEnvironment, appNames, appRoutes } = require('./app-sources.cjs');
const { checkCompose } = require('./compose.cjs');
const { checkMigrations, checkPorts, checkProbePaths, checkSelectors, checkShutdown, checkWalletMemory } = require('./cross-checks.cjs');
const { checkDockerfile } = require('./dockerfile.cjs');
const { checkEnvironment } = require('./environment.cjs');
const { checkKubernetesSchema } = require('./kubernetes-schema.cjs');
const { renderAll, yamlDocuments } = require('./render.cjs');
const { checkRedisSentinel } = require('./redis-sentinel.cjs');
const { checkSecrets } = require('./secrets.cjs');
const { checkTransportKeys } = require('./transport-keys.cjs');

const ROOT = resolve(__dirname, '..', '..');

/**
 * Where to look. `root` holds the apps' sources (apps/, libs/), read for the variables and paths they use; the
 * others default to the files of `root`, and can point at copies.
 */
function withDefaults(options = {}) {
  const root = options.root ?? ROOT;
  return {
    root,
    k8sDir: options.k8sDir ?? join(root, 'k8s'),
    dockerfile: options.dockerfile ?? join(root, 'Dockerfile'),
    composeFile: options.composeFile ?? join(root, 'docker-compose.yml'),
    composeSchema: options.composeSchema ?? join(root, 'deploy', 'compose-spec.schema.json'),
  };
}

/** Each app's environment and routes, read from its source. */
function loadApps(root) {
  return new Map(appNames(root).map((name) => [name, { name, environment: appEnvironment(root, name), routes: appRoutes(root, name) }]));
}

/** Runs every check: `[{ name, problems }]`, in a fixed order. */
async function runChecks(options) {
  const { root, k8sDir, dockerfile, composeFile, composeSchema } = withDefaults(options);
  const apps = loadApps(root);
  const { renderings, problems: renderProblems } = await renderAll(k8sDir);
  const documents = yamlDocuments(k8sDir);
  const secretTemplates = documents.filter(({ object }) => object.kind === 'Secret');
  const checks = [
    ['render', () => renderProblems],
    ['kubernetes-schema', () => checkKubernetesSchema(renderings)],
    ['selectors', () => checkSelectors(renderings)],
    ['ports', () => checkPorts(renderings)],
    ['probe-paths', () => checkProbePaths(renderings, apps)],
    ['environment', () => checkEnvironment(renderings, apps, secretTemplates)],
    ['secrets', () => checkSecrets(renderings, documents, k8sDir)],
    ['transport-keys', () => checkTransportKeys(renderings, apps, secretTemplates, composeFile)],
    ['redis-sentinel', () => checkRedisSentinel(renderings, apps, secretTemplates)],
    ['shutdown', () => checkShutdown(renderings, apps, secretTemplates)],
    ['wallet-memory', () => checkWalletMemory(renderings, apps, secretTemplates)],
    ['migrations', () => checkMigrations(renderings, apps, secretTemplates)],
    ['compose', () => checkCompose(composeFile, composeSchema)],
    ['dockerfile', () => checkDockerfile(dockerfile)],
  ];
  return checks.map(([name, check]) => {
    try {
      return { name, problems: check() };
    } catch (error) {
      return { name, problems: [`the check itself failed: ${error instanceof Error ? error.stack : String(error)}`] };
    }
  });
}

module.exports = {
  runChecks,
  loadApps,
  renderAll,
  yamlDocuments,
  checkKubernetesSchema,
  checkSelectors,
  checkPorts,
  checkProbePaths,
  checkEnvironment,
  checkSecrets,
  checkTransportKeys,
  checkRedisSentinel,
  checkShutdown,
  checkWalletMemory,
  checkMigrations,
  checkCompose,
  checkDockerfile,
};
