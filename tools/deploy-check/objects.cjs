'use strict';
/** Reading rendered Kubernetes objects: names, label selectors, workloads and their containers, quantities. */

const describe = (object) => `${object?.kind ?? '?'}/${object?.metadata?.name ?? '?'}`;

/** Whether a LabelSelector (matchLabels and matchExpressions) selects `labels`; an empty selector selects everything. */
function selects(selector, labels = {}) {
  if (!selector) {
    return false;
  }
  const matchLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const matchExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
      default:
        return false;
    }
  });
  return matchLabels && matchExpressions;
}

/** A Service's `selector` is a plain map; as a LabelSelector it selects the same pods. */
const serviceSelector = (service) => (service.spec?.selector ? { matchLabels: service.spec.selector } : undefined);

/** Deployments and Jobs: what runs pods, with their pod labels and pod spec. */
function workloads(objects) {
  return objects
    .filter((object) => ['Deployment', 'Job', 'StatefulSet', 'DaemonSet'].includes(object.kind))
    .map((object) => ({
      object,
      name: describe(object),
      kind: object.kind,
      podLabels: object.spec?.template?.metadata?.labels ?? {},
      pod: object.spec?.template?.spec ?? {},
    }));
}

const containersOf = (pod) => [...(pod.initContainers ?? []), ...(pod.containers ?? [])];

/** The app an image belongs to: `registry.example.com/game-wallet-wallet:1.2.3` → `wallet`. */
function appOfImage(image) {
  const name = String(image ?? '')
    .replace(/@.*$/, '')
    .split('/')
    .pop()
    .replace(/:[^:]*$/, '');
  const match = /^game-wallet-([a-z0-9-]+)$/.exec(name);
  return match ? match[1] : undefined;
}

/** CPUs of a quantity (`500m` → 0.5, `2` → 2). */
function cpuOf(quantity) {
  if (quantity === undefined) {
    return undefined;
  }
  const text = String(quantity);
  return text.endsWith('m') ? Number(text.slice(0, -1)) / 1000 : Number(text);
}

const MEMORY_UNITS = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, '': 1 };

/** Bytes of a memory quantity (`384Mi`, `512M`, `1Gi`). */
function bytesOf(quantity) {
  if (quantity === undefined) {
    return undefined;
  }
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|K|M|G|T)?$/.exec(String(quantity));
  return match ? Number(match[1]) * MEMORY_UNITS[match[2] ?? ''] : undefined;
}

module.exports = { describe, selects, serviceSelector, workloads, containersOf, appOfImage, cpuOf, bytesOf };
