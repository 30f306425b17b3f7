'use strict';
/** docker-compose.yml against the Compose Specification's JSON schema (deploy/compose-spec.schema.json). */
const Ajv = require('ajv');
const { existsSync, readFileSync } = require('node:fs');
const { basename } = require('node:path');
const YAML = require('yaml');

function ajvMessage(error) {
  // ajv names the place as a JSON pointer (/services/core): shown as services.core.
  const at = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(top level)';
  if (error.keyword === 'additionalProperties') {
    return `${at}: unknown key ${error.params.additionalProperty}`;
  }
  return `${at}: ${error.message}`;
}

/**
 * `compose`: the file parses (anchors and `<<` merge keys resolved, as Compose does) and matches the schema. Several
 * errors of a oneOf describe one mistake, so each path is reported once, unknown keys first.
 */
function checkCompose(composeFile, schemaFile) {
  if (!existsSync(composeFile)) {
    return [`${composeFile} does not exist`];
  }
  let document;
  try {
    document = YAML.parse(readFileSync(composeFile, 'utf8'), { merge: true });
  } catch (error) {
    return [`${composeFile}: not valid YAML: ${error.message.split('\n')[0]}`];
  }
  // The schema's $schema is draft-07 under an https id that Ajv does not know by that name: skip meta-validation.
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, validateFormats: false, logger: false });
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  if (validate(document)) {
    return [];
  }
  const unknownKeyFirst = (error) => (error.keyword === 'additionalProperties' ? 0 : 1);
  const errors = [...validate.errors].sort((a, b) => unknownKeyFirst(a) - unknownKeyFirst(b));
  const seen = new Set();
  return errors.flatMap((error) => {
    const path = error.instancePath;
    if (seen.has(path)) {
      return [];
    }
    seen.add(path);
    return [`${basename(composeFile)}: ${ajvMessage(error)}`];
  });
}

module.exports = { checkCompose };
