'use strict';
/**
 * Each app signs the transport with keys of its own, one per app it talks to (libs/transport/src/transport-keys.ts):
 * what one app holds must never reach another, or a leak of that app becomes a leak of both.
 */
const { existsSync, readFileSync } = require('node:fs');
const YAML = require('yaml');
const { appContainers, containerEnvironment } = require('./environment.cjs');

const VARIABLES = ['TRANSPORT_HMAC_KEYS', 'TRANSPORT_HMAC_KEY_ID'];

/**
 * `transport-keys`: in every overlay each app's container takes its transport keys from a Secret of its own (labelled
 * `app.kubernetes.io/name: <app>`), never from a ConfigMap or a literal, and no two apps take them from the same
 * Secret; in docker-compose.yml no two apps are given the same value.
 */
function checkTransportKeys(renderings, apps, secretTemplates, composeFile) {
  const problems = [];
  const template = (name) => secretTemplates.find(({ object }) => object.metadata?.name === name)?.object;
  for (const { overlay, objects } of renderings) {
    /** Secret name → the apps that read their transport keys from it. */
    const readers = new Map();
    for (const { workload, container, app } of appContainers(objects, apps)) {
      const { variables } = containerEnvironment(container, objects, secretTemplates);
      for (const name of VARIABLES) {
        const variable = variables.get(name);
        if (variable === undefined) {
          continue; // required or not, the environment check says so
        }
        const where = `${overlay}: ${workload.name} (${container.name}): ${name}`;
        const secret = /^Secret (.+)$/.exec(variable.from)?.[1];
        if (secret === undefined) {
          problems.push(`${where} comes from ${variable.from}: it must come from the ${app.name}'s own Secret`);
          continue;
        }
        const owner = template(secret)?.metadata?.labels?.['app.kubernetes.io/name'];
        if (owner !== undefined && owner !== app.name) {
          problems.push(`${where} comes from Secret ${secret}, which belongs to the ${owner}: the ${app.name}'s keys must be its own`);
        }
        readers.set(secret, new Set([...(readers.get(secret) ?? []), app.name]));
      }
    }
    for (const [secret, names] of readers) {
      if (names.size > 1) {
        problems.push(`${overlay}: ${[...names].sort().join(', ')} take their transport keys from one Secret, ${secret}: each app's keys must be its own`);
      }
    }
  }
  return [...problems, ...composeProblems(composeFile, apps)];
}

/** Compose services of our apps (by build argument APP or image) given the same TRANSPORT_HMAC_KEYS (key ids may match). */
function composeProblems(composeFile, apps) {
  if (!existsSync(composeFile)) {
    return [];
  }
  const services = Object.entries(YAML.parse(readFileSync(composeFile, 'utf8'), { merge: true })?.services ?? {});
  const byValue = new Map();
  for (const [service, definition] of services) {
    const app = definition?.build?.args?.APP ?? /game-wallet-([a-z]+)/.exec(String(definition?.image ?? ''))?.[1];
    const environment = Array.isArray(definition?.environment)
      ? Object.fromEntries(definition.environment.map((entry) => String(entry).split(/=(.*)/s).slice(0, 2)))
      : (definition?.environment ?? {});
    const value = environment.TRANSPORT_HMAC_KEYS;
    if (apps.has(app) && value !== undefined && value !== null && value !== '') {
      byValue.set(String(value), [...(byValue.get(String(value)) ?? []), service]);
    }
  }
  return [...byValue.values()]
    .filter((sharing) => sharing.length > 1)
    .map((sharing) => `docker-compose.yml: ${sharing.join(', ')} are given the same TRANSPORT_HMAC_KEYS: each app's keys must be its own`);
}

module.exports = { checkTransportKeys };
