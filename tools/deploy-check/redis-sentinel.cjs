'use strict';
/**
 * The Redis Sentinel settings of each app (libs/config/src/redis-target.ts): checked here as the app checks them at
 * start, so a typo fails the deploy check rather than a rollout.
 */
const { appContainers, containerEnvironment } = require('./environment.cjs');

/** `host:port` or `[v6]:port`, as the apps accept a Sentinel (parseSentinelAddress). */
const SENTINEL = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;
const SETTINGS = ['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_USERNAME', 'REDIS_SENTINEL_PASSWORD', 'REDIS_SENTINEL_TLS'];

/**
 * `redis-sentinel`: where an app is given `REDIS_SENTINELS`, it is also given `REDIS_SENTINEL_MASTER`, every entry
 * of a value the check can see (a ConfigMap or a literal) is `host:port`, the Sentinel password comes from a Secret,
 * the other Sentinel settings are not set without Sentinels, and every app of an overlay follows the same Sentinels
 * (or none): apps on different Redis servers cannot reach each other.
 */
function checkRedisSentinel(renderings, apps, secretTemplates) {
  const problems = [];
  for (const { overlay, objects } of renderings) {
    const targets = new Map();
    for (const { workload, container } of appContainers(objects, apps)) {
      const where = `${overlay}: ${workload.name} (${container.name})`;
      const { variables } = containerEnvironment(container, objects, secretTemplates);
      const sentinels = variables.get('REDIS_SENTINELS');
      const password = variables.get('REDIS_SENTINEL_PASSWORD');
      if (password !== undefined && !password.from.startsWith('Secret ')) {
        problems.push(`${where}: REDIS_SENTINEL_PASSWORD comes from ${password.from}: a password belongs in the app's Secret`);
      }
      if ((container.command ?? []).some((part) => /(^|\/)migrate\.js$/.test(part))) {
        continue; // a migration Job reads its database URL only
      }
      if (sentinels === undefined) {
        // A Secret's value is not known here (its template holds a blank placeholder): only what is seen to be set counts.
        for (const name of SETTINGS.filter((setting) => variables.get(setting)?.value)) {
          problems.push(`${where}: ${name} is set but REDIS_SENTINELS is not (set both, or neither)`);
        }
        targets.set(workload.name, 'REDIS_URL');
        continue;
      }
      if (!variables.has('REDIS_SENTINEL_MASTER') || variables.get('REDIS_SENTINEL_MASTER').value === '') {
        problems.push(`${where}: REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER (the master set to follow) is not`);
      }
      if (sentinels.value !== undefined) {
        const entries = sentinels.value.split(',').map((entry) => entry.trim());
        entries.forEach((entry, index) => {
          const port = Number(SENTINEL.exec(entry)?.[1]);
          if (!(port >= 1 && port <= 65535)) {
            problems.push(`${where}: REDIS_SENTINELS entry ${index + 1} is not host:port`);
          }
        });
        targets.set(workload.name, `Sentinels ${entries.length === 1 ? 'at' : 'of'} ${entries.join(',')}, master set ${variables.get('REDIS_SENTINEL_MASTER')?.value ?? 'unset'}`);
      }
    }
    const distinct = new Set(targets.values());
    if (distinct.size > 1) {
      problems.push(`${overlay}: the apps follow different Redis servers (${[...targets].map(([name, target]) => `${name}: ${target}`).join('; ')})`);
    }
  }
  return problems;
}

module.exports = { checkRedisSentinel };
