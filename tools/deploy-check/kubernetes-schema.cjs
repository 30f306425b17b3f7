'use strict';
/**
 * Validates rendered objects against the Kubernetes schemas that kubernetes-models ships, and rejects fields those
 * schemas do not know (the schemas allow additional properties, so a misspelt field would otherwise pass and be
 * dropped by the API server without a word).
 */
const Ajv = require('ajv');
const { ObjectMeta, LabelSelector } = require('@kubernetes-models/apimachinery/apis/meta/v1');
const { describe } = require('./objects.cjs');

/** The model class of `apiVersion`/`kind` (`apps/v1` → `kubernetes-models/apps/v1`, `v1` → `kubernetes-models/v1`). */
function modelOf(apiVersion, kind) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !/^[\w.-]+(\/[\w.-]+)?$/.test(apiVersion)) {
    return undefined;
  }
  try {
    const models = require(`kubernetes-models/${apiVersion}`);
    return typeof models[kind] === 'function' ? models[kind] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a model's compiled schema on `value` and lists the fields it never looked at. The compiled validators read every
 * property their schema declares (and enumerate the keys of maps such as labels or resource limits), so a key that was
 * neither read nor enumerated is one the schema does not have. Nested objects of an unknown field are not visited.
 */
function unknownFields(Model, value, path = '') {
  const visits = new WeakMap();
  const track = (node) => {
    if (node === null || typeof node !== 'object') {
      return node;
    }
    const visit = visits.get(node) ?? { read: new Set(), enumerated: false };
    visits.set(node, visit);
    return new Proxy(node, {
      get(target, property, receiver) {
        if (typeof property === 'string') {
          visit.read.add(property);
        }
        return track(Reflect.get(target, property, receiver));
      },
      ownKeys(target) {
        visit.enumerated = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  try {
    Model.prototype.validate.call(track(value));
  } catch {
    // Schema errors are reported by the plain validation; here only the fields matter.
  }
  const unknown = [];
  const walk = (node, at) => {
    const visit = node !== null && typeof node === 'object' ? visits.get(node) : undefined;
    if (!visit) {
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${at}[${index}]`));
      return;
    }
    for (const key of Object.keys(node)) {
      if (visit.enumerated || visit.read.has(key)) {
        walk(node[key], `${at}.${key}`);
      } else {
        unknown.push(`${at}.${key}`.replace(/^\./, ''));
      }
    }
  };
  walk(value, path);
  return unknown;
}

/** `prefix.a.b[0].c: message` of an ajv error (ajv 6 names the path dataPath, ajv 8 instancePath). */
function ajvMessage(error, prefix = '') {
  const path = (error.instancePath ?? error.dataPath ?? '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
  const at = `${prefix}${path}`.replace(/^\./, '');
  const detail = error.keyword === 'additionalProperties' ? `unknown field ${error.params.additionalProperty}` : error.message;
  return at ? `${at}: ${detail}` : detail;
}

/** Schema errors and unknown fields of `value`, its paths starting with `prefix`. */
function modelProblems(Model, value, prefix = '') {
  const problems = [];
  try {
    new Model(value).validate();
  } catch (error) {
    problems.push(...(Array.isArray(error.errors) ? error.errors.map((each) => ajvMessage(each, prefix)) : [String(error.message ?? error)]));
  }
  for (const field of unknownFields(Model, value, prefix)) {
    problems.push(`${field}: unknown field`);
  }
  return problems;
}

const DURATION = '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$';
const stringArray = { type: 'array', items: { type: 'string' } };

/**
 * Custom resources have no schema in kubernetes-models: each one used here gets a small schema of the fields of its
 * CRD that we use or may use, closed to anything else, while metadata and label selectors go through the models.
 */
const CUSTOM_RESOURCES = {
  'monitoring.coreos.com/v1/ServiceMonitor': {
    schema: {
      type: 'object',
      required: ['apiVersion', 'kind', 'metadata', 'spec'],
      additionalProperties: false,
      properties: {
        apiVersion: { const: 'monitoring.coreos.com/v1' },
        kind: { const: 'ServiceMonitor' },
        metadata: { type: 'object' },
        spec: {
          type: 'object',
          required: ['selector', 'endpoints'],
          additionalProperties: false,
          properties: {
            selector: { type: 'object' },
            namespaceSelector: {
              type: 'object',
              additionalProperties: false,
              properties: { any: { type: 'boolean' }, matchNames: stringArray },
            },
            jobLabel: { type: 'string' },
            targetLabels: stringArray,
            podTargetLabels: stringArray,
            sampleLimit: { type: 'integer', minimum: 0 },
            endpoints: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                additionalProperties: false,
                anyOf: [{ required: ['port'] }, { required: ['targetPort'] }],
                properties: {
                  port: { type: 'string', minLength: 1 },
                  targetPort: { type: ['integer', 'string'] },
                  path: { type: 'string', pattern: '^/' },
                  scheme: { enum: ['http', 'https'] },
                  interval: { type: 'string', pattern: DURATION },
                  scrapeTimeout: { type: 'string', pattern: DURATION },
                  honorLabels: { type: 'boolean' },
                  honorTimestamps: { type: 'boolean' },
                  params: { type: 'object', additionalProperties: stringArray },
                  relabelings: { type: 'array', items: { type: 'object' } },
                  metricRelabelings: { type: 'array', items: { type: 'object' } },
                  tlsConfig: { type: 'object' },
                  authorization: { type: 'object' },
                  followRedirects: { type: 'boolean' },
                  enableHttp2: { type: 'boolean' },
                },
              },
            },
          },
        },
      },
    },
    nested: (object) => [
      [ObjectMeta, object.metadata, '.metadata'],
      [LabelSelector, object.spec?.selector, '.spec.selector'],
    ],
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
const customValidators = Object.fromEntries(
  Object.entries(CUSTOM_RESOURCES).map(([key, { schema, nested }]) => [key, { validate: ajv.compile(schema), nested }]),
);

function customResourceProblems(custom, object) {
  const problems = custom.validate(object) ? [] : custom.validate.errors.map((error) => ajvMessage(error));
  for (const [Model, value, path] of custom.nested(object)) {
    if (value !== undefined) {
      problems.push(...modelProblems(Model, value, path));
    }
  }
  return problems;
}

/** Problems of one rendered object, each naming the object. */
function objectProblems(object) {
  const custom = customValidators[`${object.apiVersion}/${object.kind}`];
  if (custom) {
    return customResourceProblems(custom, object).map((problem) => `${describe(object)}: ${problem}`);
  }
  const Model = modelOf(object.apiVersion, object.kind);
  if (!Model) {
    return [`${describe(object)}: no schema for ${object.apiVersion}/${object.kind} (neither in kubernetes-models nor a known custom resource)`];
  }
  return modelProblems(Model, object).map((problem) => `${describe(object)}: ${problem}`);
}

/** `kubernetes-schema`: every rendered object against its schema, unknown fields rejected. */
function checkKubernetesSchema(renderings) {
  return renderings.flatMap(({ overlay, objects }) => objects.flatMap(objectProblems).map((problem) => `${overlay}: ${problem}`));
}

module.exports = { checkKubernetesSchema, objectProblems, unknownFields, modelOf };
