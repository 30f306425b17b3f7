'use strict';
/** No secret value is committed: Secrets under k8s/ hold placeholders only, and no overlay renders a Secret. */
const { relative } = require('node:path');
const { describe } = require('./objects.cjs');

/** The templates' convention: every value to fill in contains CHANGE-ME. */
const isPlaceholder = (value) => value === '' || value === null || /CHANGE-ME/.test(String(value));

const decoded = (value) => Buffer.from(String(value ?? ''), 'base64').toString('utf8');

function committedValues(secret) {
  return [
    ...Object.entries(secret.stringData ?? {}).filter(([, value]) => !isPlaceholder(value)),
    ...Object.entries(secret.data ?? {}).filter(([, value]) => !isPlaceholder(decoded(value))),
  ].map(([key]) => key);
}

/** Literals, files and env files of a kustomization's secretGenerator: values committed beside it. */
function generatedSecretValues(kustomization) {
  return (kustomization.secretGenerator ?? []).flatMap((generator) => [
    ...(generator.literals ?? [])
      .map((literal) => String(literal).split('='))
      .filter(([, ...value]) => !isPlaceholder(value.join('=')))
      .map(([key]) => `${generator.name}: literal ${key}`),
    ...[...(generator.files ?? []), ...(generator.envs ?? [])].map((file) => `${generator.name}: file ${file}`),
  ]);
}

/**
 * `secrets`: every Secret in a file under k8s/ has placeholder values only, no kustomization generates a Secret from
 * committed values, and no overlay renders a Secret (applying it would replace the real one).
 */
function checkSecrets(renderings, documents, k8sDir) {
  const problems = [];
  for (const { file, object } of documents) {
    const where = relative(k8sDir, file);
    if (object.kind === 'Secret') {
      for (const key of committedValues(object)) {
        problems.push(`${where}: ${describe(object)} commits a value for ${key} (only CHANGE-ME placeholders belong in the repository)`);
      }
    }
    if (object.kind === 'Kustomization' || object.kind === 'Component' || /kustomization\.ya?ml$/.test(file)) {
      for (const value of generatedSecretValues(object)) {
        problems.push(`${where}: secretGenerator ${value} commits a secret value`);
      }
    }
  }
  for (const { overlay, objects } of renderings) {
    for (const secret of objects.filter((object) => object.kind === 'Secret')) {
      const committed = committedValues(secret);
      problems.push(
        committed.length > 0
          ? `${overlay}: renders ${describe(secret)} with committed values for ${committed.join(', ')}`
          : `${overlay}: renders ${describe(secret)}: applying it would replace the real Secret with placeholders`,
      );
    }
  }
  return problems;
}

module.exports = { checkSecrets, isPlaceholder };
