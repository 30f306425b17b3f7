'use strict';
/** Checks across the rendered objects of an overlay: what selects what, which ports and paths exist. */
const { appContainers, valueIn } = require('./environment.cjs');
const { appOfImage, bytesOf, containersOf, cpuOf, describe, selects, serviceSelector, workloads } = require('./objects.cjs');

const isEmptySelector = (selector) =>
  !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);

/** For each overlay, `check(objects, overlay)` returns problems; they are prefixed with the overlay. */
const perOverlay = (renderings, check) =>
  renderings.flatMap(({ overlay, objects }) => check(objects, overlay).map((problem) => `${overlay}: ${problem}`));

/**
 * `selectors`: a Deployment selects its own pods and no other workload's; every Service, PodDisruptionBudget and
 * NetworkPolicy selects the pods of a Deployment (Services and budgets exactly one, and never a Job's pods); every
 * autoscaler targets an existing Deployment; every ServiceMonitor selects a Service; every Ingress backend exists.
 */
function checkSelectors(renderings) {
  return perOverlay(renderings, (objects) => {
    const problems = [];
    const all = workloads(objects);
    const deployments = all.filter(({ kind }) => kind === 'Deployment');
    const selected = (selector) => all.filter(({ podLabels }) => selects(selector, podLabels));
    for (const deployment of deployments) {
      const selector = deployment.object.spec?.selector;
      if (!selects(selector, deployment.podLabels)) {
        problems.push(`${deployment.name}: spec.selector does not match its own pod labels`);
      }
      const others = selected(selector).filter((other) => other !== deployment);
      if (others.length > 0) {
        problems.push(`${deployment.name}: spec.selector also selects the pods of ${others.map(({ name }) => name).join(', ')}`);
      }
    }
    const exactlyOneDeployment = (object, selector, field) => {
      const pods = selected(selector);
      const names = pods.map(({ name }) => name).join(', ');
      if (pods.length === 0) {
        problems.push(`${describe(object)}: ${field} matches the pods of no Deployment`);
      } else if (pods.length > 1 || pods[0].kind !== 'Deployment') {
        problems.push(`${describe(object)}: ${field} must match the pods of one Deployment, matches ${names}`);
      }
    };
    for (const object of objects) {
      if (object.kind === 'Service' && object.spec?.selector) {
        exactlyOneDeployment(object, serviceSelector(object), 'spec.selector');
      } else if (object.kind === 'PodDisruptionBudget') {
        exactlyOneDeployment(object, object.spec?.selector, 'spec.selector');
      } else if (object.kind === 'NetworkPolicy') {
        if (!isEmptySelector(object.spec?.podSelector) && selected(object.spec.podSelector).length === 0) {
          problems.push(`${describe(object)}: spec.podSelector matches the pods of no workload`);
        }
      } else if (object.kind === 'HorizontalPodAutoscaler') {
        const { kind, name } = object.spec?.scaleTargetRef ?? {};
        if (!objects.some((target) => target.kind === kind && target.metadata?.name === name)) {
          problems.push(`${describe(object)}: scaleTargetRef ${kind}/${name} does not exist`);
        }
      } else if (object.kind === 'ServiceMonitor') {
        const services = objects.filter((service) => service.kind === 'Service' && selects(object.spec?.selector, service.metadata?.labels));
        if (services.length === 0) {
          problems.push(`${describe(object)}: spec.selector matches no Service`);
        }
      } else if (object.kind === 'Ingress') {
        for (const backend of ingressBackends(object)) {
          if (!objects.some((service) => service.kind === 'Service' && service.metadata?.name === backend.name)) {
            problems.push(`${describe(object)}: backend Service ${backend.name} does not exist`);
          }
        }
      }
    }
    return problems;
  });
}

function ingressBackends(ingress) {
  const paths = (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
  const backends = [ingress.spec?.defaultBackend, ...paths.map((path) => path.backend)];
  return backends.filter((backend) => backend?.service).map((backend) => backend.service);
}

const containerPortNames = (container) => new Set((container.ports ?? []).map((port) => port.name).filter(Boolean));
const podPortNames = (pod) => new Set(containersOf(pod).flatMap((container) => [...containerPortNames(container)]));

const probesOf = (container) =>
  ['startupProbe', 'readinessProbe', 'livenessProbe']
    .filter((kind) => container[kind])
    .map((kind) => ({ kind, probe: container[kind], handler: container[kind].httpGet ?? container[kind].tcpSocket ?? container[kind].grpc }));

/**
 * `ports`: every named port that a probe, a Service, an ingress NetworkPolicy or a ServiceMonitor refers to exists on
 * the containers (or Services) it means, and every Ingress backend port exists on its Service.
 */
function checkPorts(renderings) {
  return perOverlay(renderings, (objects) => {
    const problems = [];
    const all = workloads(objects);
    for (const workload of all) {
      for (const container of containersOf(workload.pod)) {
        for (const { kind, handler } of probesOf(container)) {
          if (typeof handler?.port === 'string' && !containerPortNames(container).has(handler.port)) {
            problems.push(`${workload.name} (${container.name}): ${kind} uses port ${handler.port}, which the container does not declare`);
          }
        }
      }
    }
    const missingOn = (selector, port) =>
      all
        .filter(({ podLabels }) => selects(selector, podLabels))
        .filter(({ kind, pod }) => kind === 'Deployment' && !podPortNames(pod).has(port));
    for (const object of objects) {
      if (object.kind === 'Service' && object.spec?.selector) {
        for (const port of object.spec.ports ?? []) {
          if (typeof port.targetPort === 'string') {
            for (const workload of missingOn(serviceSelector(object), port.targetPort)) {
              problems.push(`${describe(object)}: targetPort ${port.targetPort} is not a port of ${workload.name}`);
            }
          }
        }
      } else if (object.kind === 'NetworkPolicy') {
        for (const rule of object.spec?.ingress ?? []) {
          for (const port of rule.ports ?? []) {
            if (typeof port.port === 'string') {
              for (const workload of missingOn(object.spec.podSelector, port.port)) {
                problems.push(`${describe(object)}: ingress port ${port.port} is not a port of ${workload.name}`);
              }
            }
          }
        }
      } else if (object.kind === 'ServiceMonitor') {
        const services = objects.filter((service) => service.kind === 'Service' && selects(object.spec?.selector, service.metadata?.labels));
        for (const endpoint of object.spec?.endpoints ?? []) {
          for (const service of services) {
            if (endpoint.port && !(service.spec?.ports ?? []).some((port) => port.name === endpoint.port)) {
              problems.push(`${describe(object)}: endpoint port ${endpoint.port} is not a port of Service/${service.metadata?.name}`);
            }
          }
        }
      } else if (object.kind === 'Ingress') {
        for (const backend of ingressBackends(object)) {
          const service = objects.find((each) => each.kind === 'Service' && each.metadata?.name === backend.name);
          const ports = service?.spec?.ports ?? [];
          const { name, number } = backend.port ?? {};
          if (service && !ports.some((port) => (name !== undefined ? port.name === name : port.port === number))) {
            problems.push(`${describe(object)}: backend port ${name ?? number} is not a port of Service/${backend.name}`);
          }
        }
      }
    }
    return problems;
  });
}

/**
 * `probe-paths`: HTTP probes ask for a health path the app serves (its health controllers), and ServiceMonitors for a
 * path every app they scrape serves.
 */
function checkProbePaths(renderings, apps) {
  return perOverlay(renderings, (objects) => {
    const problems = [];
    for (const { workload, container, app } of appContainers(objects, apps)) {
      for (const { kind, probe } of probesOf(container)) {
        const path = probe.httpGet?.path;
        if (path !== undefined && !app.routes.health.has(path.split('?')[0])) {
          const health = [...app.routes.health].join(', ');
          problems.push(`${workload.name} (${container.name}): ${kind} path ${path} is not a health path the ${app.name} serves (${health})`);
        }
      }
    }
    for (const monitor of objects.filter((object) => object.kind === 'ServiceMonitor')) {
      const services = objects.filter((service) => service.kind === 'Service' && selects(monitor.spec?.selector, service.metadata?.labels));
      const scraped = workloads(objects).filter(({ podLabels }) => services.some((service) => selects(serviceSelector(service), podLabels)));
      for (const endpoint of monitor.spec?.endpoints ?? []) {
        for (const { name, pod } of scraped) {
          const app = apps.get(containersOf(pod).map((container) => appOfImage(container.image)).find(Boolean));
          if (app && !app.routes.served.has(endpoint.path ?? '/metrics')) {
            problems.push(`${describe(monitor)}: path ${endpoint.path ?? '/metrics'} is not served by ${name}`);
          }
        }
      }
    }
    return problems;
  });
}

/**
 * How long an app may take after SIGTERM: requests or messages in flight get 10 s (the transport server's close and
 * the gateway's exit timer, libs/transport and apps/gateway/src/main.ts), and an app that reads SHUTDOWN_DRAIN_MS
 * first answers 503 for that long (5 s when unset in production, apps/gateway/src/config.ts).
 */
const IN_FLIGHT_MS = 10_000;
const DEFAULT_DRAIN_MS = 5_000;

/** `shutdown`: each Deployment's terminationGracePeriodSeconds is above its app's drain time. */
function checkShutdown(renderings, apps, secretTemplates) {
  return perOverlay(renderings, (objects) => {
    const problems = [];
    const seen = new Set();
    for (const { workload, app } of appContainers(objects, apps)) {
      if (workload.kind !== 'Deployment' || seen.has(workload)) {
        continue;
      }
      seen.add(workload);
      const drain = app.environment.known.has('SHUTDOWN_DRAIN_MS')
        ? Number(valueIn(workload, objects, secretTemplates, 'SHUTDOWN_DRAIN_MS') ?? DEFAULT_DRAIN_MS)
        : 0;
      const needed = drain + IN_FLIGHT_MS;
      const grace = (workload.pod.terminationGracePeriodSeconds ?? 30) * 1000;
      if (!(grace > needed)) {
        problems.push(
          `${workload.name}: terminationGracePeriodSeconds ${grace / 1000} must be above ${needed / 1000} s ` +
            `(drain ${drain} ms + ${IN_FLIGHT_MS} ms in flight)`,
        );
      }
    }
    return problems;
  });
}

/**
 * The wallet's memory: the main process stays under 200 MB (its NODE_OPTIONS heap bound, soak-tested), and each
 * key-generation thread adds 10-15 MB. The pool has one thread per CPU of the limit (rounded up) unless
 * WALLET_KEYGEN_THREADS fixes the number (apps/wallet/src/keys/cpu-budget.ts).
 */
const MAIN_PROCESS_BYTES = 200 * 2 ** 20;
const THREAD_BYTES = 15 * 2 ** 20;

/** `wallet-memory`: the memory limit of every container whose app sizes a thread pool by CPU holds that pool. */
function checkWalletMemory(renderings, apps, secretTemplates) {
  return perOverlay(renderings, (objects) => {
    const problems = [];
    for (const { workload, container, app } of appContainers(objects, apps)) {
      if (workload.kind !== 'Deployment' || !app.environment.known.has('WALLET_KEYGEN_THREADS')) {
        continue;
      }
      const where = `${workload.name} (${container.name})`;
      const fixed = valueIn(workload, objects, secretTemplates, 'WALLET_KEYGEN_THREADS');
      const cpu = cpuOf(container.resources?.limits?.cpu);
      const memory = bytesOf(container.resources?.limits?.memory);
      const threads = fixed !== undefined ? Number(fixed) : cpu !== undefined ? Math.ceil(cpu) : undefined;
      if (threads === undefined) {
        problems.push(`${where}: no CPU limit and no WALLET_KEYGEN_THREADS: the key-generation pool would start a thread per node core`);
      } else if (memory === undefined) {
        problems.push(`${where}: no memory limit`);
      } else if (memory < MAIN_PROCESS_BYTES + threads * THREAD_BYTES) {
        const needed = (MAIN_PROCESS_BYTES + threads * THREAD_BYTES) / 2 ** 20;
        problems.push(
          `${where}: memory limit ${container.resources.limits.memory} is below ${needed}Mi, ` +
            `the main process plus ${threads} key-generation thread(s) at 15Mi each`,
        );
      }
    }
    return problems;
  });
}

/**
 * `migrations`: a Deployment running with MIGRATIONS=job has, in the same overlay, a Job running `migrate.js` from the
 * same image, restarting on failure, bounded, cleaned up, and under the same security context as the Deployment.
 */
function checkMigrations(renderings, apps, secretTemplates) {
  return perOverlay(renderings, (objects) => {
    const problems = [];
    const all = workloads(objects);
    const jobs = all.filter(({ kind }) => kind === 'Job');
    const migrates = (container) => [...(container.command ?? []), ...(container.args ?? [])].some((part) => /(^|\/)migrate\.js$/.test(part));
    for (const deployment of all.filter(({ kind }) => kind === 'Deployment')) {
      if (valueIn(deployment, objects, secretTemplates, 'MIGRATIONS') !== 'job') {
        continue;
      }
      const image = containersOf(deployment.pod).find((container) => appOfImage(container.image))?.image;
      const job = jobs.find(({ pod }) => containersOf(pod).some((container) => container.image === image && migrates(container)));
      if (!job) {
        problems.push(`${deployment.name}: runs with MIGRATIONS=job but no Job runs migrate.js from its image ${image}`);
        continue;
      }
      const spec = job.object.spec ?? {};
      if (!['OnFailure', 'Never'].includes(job.pod.restartPolicy)) {
        problems.push(`${job.name}: restartPolicy must be OnFailure or Never`);
      }
      if (spec.backoffLimit === undefined) {
        problems.push(`${job.name}: set backoffLimit`);
      }
      if (spec.ttlSecondsAfterFinished === undefined) {
        problems.push(`${job.name}: set ttlSecondsAfterFinished`);
      }
      if (JSON.stringify(job.pod.securityContext) !== JSON.stringify(deployment.pod.securityContext)) {
        problems.push(`${job.name}: pod securityContext differs from ${deployment.name}'s`);
      }
      const jobContainer = containersOf(job.pod).find((container) => container.image === image);
      const deploymentContainer = containersOf(deployment.pod).find((container) => container.image === image);
      if (JSON.stringify(jobContainer.securityContext) !== JSON.stringify(deploymentContainer.securityContext)) {
        problems.push(`${job.name}: container securityContext differs from ${deployment.name}'s`);
      }
    }
    return problems;
  });
}

module.exports = { checkSelectors, checkPorts, checkProbePaths, checkShutdown, checkWalletMemory, checkMigrations };
