'use strict';
// JSON Schemas of the reply types in libs/contracts, generated from the TypeScript types themselves
// (ts-json-schema-generator) into libs/contracts/src/view-schemas.json, which the gateway's OpenAPI documents use.
// A unit test regenerates them and fails when the committed file is stale (`nx run contracts:schemas` rewrites it).
const { writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { createGenerator } = require('ts-json-schema-generator');

/** The reply shapes the public and console APIs name in their documents (and every type they refer to). */
const VIEW_TYPES = [
  'ErrorBody',
  'AuditExportLineView',
  'PlayerView',
  'WalletWithProfileView',
  'SignatureView',
  'SignedTransactionView',
  'SigningPolicy',
  'SigningPolicyView',
  'SigningPolicyVersionPage',
  'PolicyEvaluationView',
  'SigningPolicyDraftView',
  'PolicyDifferencePage',
  'PolicyReplayView',
  'IssuedToken',
  'Jwks',
  'HealthReportView',
  'LivenessView',
  'GameView',
  'GamePage',
  'ApiKeyList',
  'CreatedApiKeyView',
  'SigningKeyView',
  'AuditPage',
  'ConsolePlayerPage',
  'ConsoleSessionView',
  'ConsoleSessionInfo',
  'ConsoleEndpointsView',
  // Two-factor sign-in, step-up and the operator's own account
  'ConsoleSignInView',
  'StepUpView',
  'StepUpOptionsView',
  'ConsoleAccountView',
  'ConsoleSessionEntryList',
  'PasswordChangedView',
  'TotpEnrollmentView',
  'RecoveryCodesView',
  'PasskeyCreationOptionsView',
  'PasskeyView',
  // the console's team
  'OperatorList',
  'OperatorView',
  'OperatorSessionList',
  'InvitationList',
  'CreatedInvitationView',
  'InvitationPreview',
  'ConsoleSettingsView',
  // webhooks: the endpoints and their log, and each event type's data (the documents' `webhooks` section)
  'WebhookEndpointList',
  'WebhookEndpointView',
  'CreatedWebhookEndpointView',
  'WebhookDeliveryView',
  'WebhookDeliveryPage',
  'ScheduledRedeliveriesView',
  'PlayerCreatedData',
  'WalletSigningData',
  'SigningPolicyChangedData',
  'ApiKeyChangedData',
  'ProfileTokensRevokedData',
  'WebhookEndpointChangedData',
  'WebhookTestData',
];

const OUTPUT = join('libs', 'contracts', 'src', 'view-schemas.json');

/** OpenAPI component names allow only letters, digits and `._-`: `Page<GameView>` becomes `Page_GameView`. */
const componentName = (name) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+$/, '');

function renameRefs(value) {
  if (Array.isArray(value)) {
    return value.map(renameRefs);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        key === '$ref' && typeof inner === 'string'
          ? [key, `#/components/schemas/${componentName(decodeURIComponent(inner.replace('#/definitions/', '')))}`]
          : [key, renameRefs(inner)],
      ),
    );
  }
  return value;
}

/** Every schema by component name, sorted, with `$ref`s pointing at `#/components/schemas/…`. */
function generateViewSchemas(root = resolve(__dirname, '..', '..')) {
  const generator = createGenerator({
    path: join(root, 'libs', 'contracts', 'src', 'index.ts'),
    tsconfig: join(root, 'tsconfig.json'),
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    skipTypeCheck: true,
    additionalProperties: false,
  });
  const definitions = {};
  for (const type of VIEW_TYPES) {
    Object.assign(definitions, generator.createSchema(type).definitions);
  }
  const sorted = Object.keys(definitions)
    .sort()
    .map((name) => [componentName(name), renameRefs(definitions[name])]);
  return Object.fromEntries(sorted);
}

function serialise(schemas) {
  return `${JSON.stringify(schemas, null, 2)}\n`;
}

if (require.main === module) {
  const root = resolve(__dirname, '..', '..');
  writeFileSync(join(root, OUTPUT), serialise(generateViewSchemas(root)));
  console.log(`view-schemas: ${OUTPUT} written`);
}

module.exports = { generateViewSchemas, serialise, OUTPUT, VIEW_TYPES };
