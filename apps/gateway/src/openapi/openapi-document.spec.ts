import Ajv2020 from 'ajv/dist/2020';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_ROUTES } from './api-routes';
import { openApiDocument } from './openapi-document';

type Operation = { security: unknown[]; responses: Record<string, { headers?: Record<string, unknown>; content?: { 'application/json': { schema: { properties?: { code: { enum: string[] } } } } } }> };
const operations = (document: Record<string, unknown>): [string, Operation][] =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation]),
  );

describe('OpenAPI documents', () => {
  const base = openApiDocument('base');
  const core = openApiDocument('core');

  it('validate as OpenAPI 3.1, every $ref resolved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwt-openapi-'));
    try {
      writeFileSync(join(dir, 'base.json'), JSON.stringify(base));
      writeFileSync(join(dir, 'core.json'), JSON.stringify(core));
      const output = execFileSync(process.execPath, [join(__dirname, '../../../../tools/openapi/validate.mjs'), join(dir, 'base.json'), join(dir, 'core.json')], { encoding: 'utf8' });
      expect(output.trim().split('\n')).toEqual([`valid OpenAPI 3.1: ${join(dir, 'base.json')}`, `valid OpenAPI 3.1: ${join(dir, 'core.json')}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('list each port its own routes only: players on core_url, everything else on base_url', () => {
    expect(operations(core).map(([name]) => name)).toEqual(['POST /v1/player/create', 'GET /v1/player/{playerId}']);
    expect(operations(base).map(([name]) => name)).not.toContain('POST /v1/player/create');
    expect(operations(base)).toHaveLength(API_ROUTES.length - 2);
  });

  it('name the credentials of each route as the auth rules say', () => {
    const security = Object.fromEntries([...operations(base), ...operations(core)].map(([name, operation]) => [name, operation.security]));
    expect(security['POST /v1/player/create']).toEqual([{ 'api-key': [] }]);
    expect(security['GET /v1/wallet/{walletId}']).toEqual([{ 'api-key': [] }, { 'jwt-core': [] }]);
    expect(security['GET /v1/health']).toEqual([]);
    expect(security['GET /v1/console/games']).toEqual([{ 'console-token': [] }, { 'console-cookie': [] }]);
  });

  it('give every error answer the {message, code} schema and the codes it can carry', () => {
    const create = operations(core).find(([name]) => name === 'POST /v1/player/create')?.[1] as Operation;
    expect(create.responses['403'].content?.['application/json'].schema.properties?.code.enum).toEqual(['API_KEY_INACTIVE', 'FORBIDDEN', 'API_KEY_REQUIRED']);
    expect(create.responses['429'].content?.['application/json'].schema.properties?.code.enum).toEqual(['RATE_LIMITED']);
    expect(create.responses['401'].content?.['application/json'].schema.properties?.code.enum).toEqual(
      expect.arrayContaining(['INVALID_API_KEY', 'SIGNATURE_REQUIRED', 'INVALID_SIGNATURE']),
    );
    expect(create.responses['409'].content?.['application/json'].schema.properties?.code.enum).toEqual(['IDEMPOTENCY_IN_PROGRESS']);
    expect(create.responses['422'].content?.['application/json'].schema.properties?.code.enum).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(Object.keys(create.responses)).toEqual(['200', '201', '400', '401', '403', '408', '409', '413', '415', '417', '422', '429', '431', '500', '503', '504']);
  });

  it('list the statuses an operation answers before it runs: HTTP refusals everywhere, 414 where the path has an id, 413/415 and malformed JSON with any method that carries a body', () => {
    const all = Object.fromEntries([...operations(base), ...operations(core)]);
    const codes = (name: string, status: number): string[] => all[name].responses[String(status)]?.content?.['application/json'].schema.properties?.code.enum ?? [];
    for (const name of Object.keys(all)) {
      expect({ name, bad: codes(name, 400), large: codes(name, 431), media: codes(name, 415) }).toEqual({
        name,
        bad: expect.arrayContaining(['BAD_REQUEST']),
        large: ['HEADERS_TOO_LARGE'],
        media: ['UNSUPPORTED_MEDIA_TYPE'],
      });
      expect({ name, tooLong: codes(name, 414) }).toEqual({ name, tooLong: name.includes('{') ? ['URI_TOO_LONG'] : [] });
    }
    expect(codes('POST /v1/profile/{id}/revoke', 400)).toContain('MALFORMED_JSON');
    expect(codes('DELETE /v1/console/session', 400)).toContain('MALFORMED_JSON');
    expect(codes('GET /v1/wallet/{walletId}', 400)).not.toContain('MALFORMED_JSON');
    expect(codes('GET /v1/console/games', 429)).toEqual(['RATE_LIMITED']);
    expect(all['GET /v1/console/games'].responses['429']).toMatchObject({ headers: { 'retry-after': expect.anything() } });
  });

  it('carry examples taken from real answers, each matching the schema it illustrates', () => {
    let examples = 0;
    for (const document of [base, core]) {
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      ajv.addSchema({ $id: 'doc', components: (document as { components: unknown }).components });
      for (const [name, operation] of operations(document)) {
        for (const [status, answer] of Object.entries(operation.responses)) {
          const content = Object.values(answer.content ?? {})[0] as { schema: unknown; example?: unknown } | undefined;
          if (content?.example === undefined) {
            continue;
          }
          const validate = ajv.compile(JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components/', '"doc#/components/')) as object);
          expect({ example: `${name} ${status}`, valid: validate(content.example), errors: validate.errors ?? null }).toEqual({ example: `${name} ${status}`, valid: true, errors: null });
          examples += 1;
        }
      }
    }
    // Every success with a body has one, but a passkey's registration: it needs an authenticator, which the OpenAPI
    // suite has not (apps/console/test/passkeys.e2e-spec.ts registers one in Chromium).
    const successesWithBody = API_ROUTES.flatMap((route) => route.responses.filter((response) => response.status < 300 && response.schema !== undefined)).length;
    expect(examples).toBeGreaterThanOrEqual(successesWithBody - 1);
  });
});
