'use strict';
/** The environment a container gets, against what its app reads (apps/<app>/src/config.ts and libs/config). */
const { appOfImage, containersOf, describe, workloads } = require('./objects.cjs');

/**
 * Read by Node.js itself, not by our code: allowed in any container. The only list kept here; everything else the apps
 * read comes from their source.
 */
const NODE_RUNTIME_VARIABLES = new Set(['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'UV_THREADPOOL_SIZE', 'TZ']);

const secretKeys = (secret) => Object.keys({ ...(secret?.data ?? {}), ...(secret?.stringData ?? {}) });

/**
 * Variables a container is given: name → { value (when known), from }. Secrets are not rendered (only templates are
 * committed), so their keys come from the templates under k8s/ and their values stay unknown. `problems` lists
 * references to ConfigMaps, Secrets or keys that do not exist.
 */
function containerEnvironment(container, objects, secretTemplates) {
  const variables = new Map();
  const problems = [];
  const configMap = (name) => objects.find((object) => object.kind === 'ConfigMap' && object.metadata?.name === name);
  const secretTemplate = (name) => secretTemplates.find(({ object }) => object.metadata?.name === name)?.object;
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (source.configMapRef) {
      const found = configMap(source.configMapRef.name);
      if (!found && !source.configMapRef.optional) {
        problems.push(`envFrom ConfigMap ${source.configMapRef.name} does not exist`);
      }
      for (const [key, value] of Object.entries(found?.data ?? {})) {
        variables.set(`${prefix}${key}`, { value: String(value), from: `ConfigMap ${source.configMapRef.name}` });
      }
    }
    if (source.secretRef) {
      const found = secretTemplate(source.secretRef.name);
      if (!found && !source.secretRef.optional) {
        problems.push(`envFrom Secret ${source.secretRef.name} has no template under k8s/ (its keys cannot be known)`);
      }
      for (const key of secretKeys(found)) {
        variables.set(`${prefix}${key}`, { from: `Secret ${source.secretRef.name}` });
      }
    }
  }
  for (const entry of container.env ?? []) {
    const { configMapKeyRef, secretKeyRef } = entry.valueFrom ?? {};
    if (configMapKeyRef) {
      const value = configMap(configMapKeyRef.name)?.data?.[configMapKeyRef.key];
      if (value === undefined && !configMapKeyRef.optional) {
        problems.push(`${entry.name}: ConfigMap ${configMapKeyRef.name} has no key ${configMapKeyRef.key}`);
      }
      variables.set(entry.name, { value, from: `ConfigMap ${configMapKeyRef.name}` });
    } else if (secretKeyRef) {
      const found = secretTemplate(secretKeyRef.name);
      if (!found) {
        problems.push(`${entry.name}: Secret ${secretKeyRef.name} has no template under k8s/ (k8s/base/<app>/secret.template.yaml)`);
      } else if (!secretKeys(found).includes(secretKeyRef.key) && !secretKeyRef.optional) {
        problems.push(`${entry.name}: Secret ${secretKeyRef.name} has no key ${secretKeyRef.key} (see its template)`);
      }
      variables.set(entry.name, { from: `Secret ${secretKeyRef.name}` });
    } else {
      variables.set(entry.name, { value: entry.value ?? (entry.valueFrom ? undefined : ''), from: 'env' });
    }
  }
  return { variables, problems };
}

/** The containers that run one of our apps (by image), with the app's environment facts. */
function appContainers(objects, apps) {
  return workloads(objects).flatMap((workload) =>
    containersOf(workload.pod)
      .map((container) => ({ workload, container, app: apps.get(appOfImage(container.image)) }))
      .filter(({ app }) => app !== undefined),
  );
}

/**
 * `environment`: every variable an app requires is set in each of its containers (env, or keys of the ConfigMaps and
 * Secrets it takes), every variable set is one the app reads, and every reference resolves.
 */
function checkEnvironment(renderings, apps, secretTemplates) {
  const problems = [];
  for (const { overlay, objects } of renderings) {
    for (const { workload, container, app } of appContainers(objects, apps)) {
      const where = `${overlay}: ${workload.name} (${container.name})`;
      const { variables, problems: references } = containerEnvironment(container, objects, secretTemplates);
      problems.push(...references.map((problem) => `${where}: ${problem}`));
      const production = variables.get('NODE_ENV')?.value === 'production';
      // A migration job (`node migrate.js`) reads only where its schema is (loadMigrationConfig).
      const migrates = (container.command ?? []).some((part) => /(^|\/)migrate\.js$/.test(part));
      const needed = (group) => !migrates || group.names.some((name) => /DATABASE_URL$/.test(name));
      const groups = [
        ...app.environment.required.filter(needed).map((group) => ({ ...group, when: '' })),
        ...(production ? app.environment.productionGroups.filter(needed).map((group) => ({ ...group, when: ' (NODE_ENV=production)' })) : []),
      ];
      for (const { names, source, when } of groups) {
        if (!names.some((name) => variables.has(name))) {
          const what = names.length === 1 ? names[0] : `one of ${names.join(', ')}`;
          problems.push(`${where}: ${what} must be set${when} (${source}) but is not`);
        }
      }
      for (const [name, { from }] of variables) {
        if (!app.environment.known.has(name) && !NODE_RUNTIME_VARIABLES.has(name)) {
          problems.push(`${where}: ${name} (from ${from}) is not read by the ${app.name}: misspelt or renamed?`);
        }
      }
    }
  }
  return problems;
}

/** The value a workload's app container gets for `name` (undefined when unset or from a Secret). */
function valueIn(workload, objects, secretTemplates, name) {
  const container = containersOf(workload.pod).find((each) => appOfImage(each.image));
  return container ? containerEnvironment(container, objects, secretTemplates).variables.get(name)?.value : undefined;
}

module.exports = { checkEnvironment, containerEnvironment, appContainers, valueIn, describe };
