import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { CheckResult } from './deploy-check.cjs';
import { runChecks } from './deploy-check.cjs';

const ROOT = resolve(__dirname, '..', '..');
const APPS = ['gateway', 'identity', 'wallet', 'core'];

/** A copy of the deployment files (and, with `sources`, of the apps' and libs' sources) to break. */
function copyOfRepository({ sources = false } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  cpSync(join(ROOT, 'k8s'), join(dir, 'k8s'), { recursive: true });
  for (const file of ['Dockerfile', 'docker-compose.yml', 'deploy/compose-spec.schema.json']) {
    cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  }
  if (sources) {
    for (const app of APPS) {
      cpSync(join(ROOT, 'apps', app, 'src'), join(dir, 'apps', app, 'src'), { recursive: true });
    }
    cpSync(join(ROOT, 'libs'), join(dir, 'libs'), { recursive: true, filter: (path) => !path.includes('node_modules') });
  }
  return dir;
}

/** Replaces `from` (which must be there) with `to` in a file of the copy. */
function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const changed = text.replace(from, to);
  if (changed === text) {
    throw new Error(`${file} does not contain ${String(from)}`);
  }
  writeFileSync(path, changed);
}

async function check(dir: string, name: string, { sources = false } = {}): Promise<string[]> {
  const results: CheckResult[] = await runChecks({
    root: sources ? dir : ROOT,
    k8sDir: join(dir, 'k8s'),
    dockerfile: join(dir, 'Dockerfile'),
    composeFile: join(dir, 'docker-compose.yml'),
  });
  const result = results.find((each) => each.name === name);
  if (!result) {
    throw new Error(`no check named ${name}`);
  }
  return result.problems;
}

describe(runChecks.name, () => {
  const copies: string[] = [];
  const copy = (options?: { sources?: boolean }): string => {
    const dir = copyOfRepository(options);
    copies.push(dir);
    return dir;
  };
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('passes on the repository as it is', async () => {
    const results = await runChecks();
    expect(results.filter(({ problems }) => problems.length > 0)).toEqual([]);
    expect(results.map(({ name }) => name)).toEqual([
      'render',
      'kubernetes-schema',
      'selectors',
      'ports',
      'probe-paths',
      'environment',
      'secrets',
      'transport-keys',
      'redis-sentinel',
      'shutdown',
      'wallet-memory',
      'migrations',
      'compose',
      'dockerfile',
    ]);
  });

  it('fails when an overlay does not render', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/kustomization.yaml', '  - migrations/core-migrate.yaml\n', '  - migrations/missing.yaml\n');

    await expect(check(dir, 'render')).resolves.toEqual([expect.stringMatching(/^overlays\/production: kubectl kustomize failed: .*missing\.yaml/)]);
  });

  it('rejects a field the Kubernetes schema does not have', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/wallet/deployment.yaml', 'imagePullPolicy: IfNotPresent', 'imagePullPolcy: IfNotPresent');

    const problems = await check(dir, 'kubernetes-schema');
    expect(problems).toContain('overlays/production: Deployment/wallet: spec.template.spec.containers[0].imagePullPolcy: unknown field');
    expect(problems).toContain('overlays/development: Deployment/wallet: spec.template.spec.containers[0].imagePullPolcy: unknown field');
  });

  it('rejects a value of the wrong type', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/patches/identity.yaml', 'replicas: 2', 'replicas: two');

    await expect(check(dir, 'kubernetes-schema')).resolves.toEqual([expect.stringMatching(/^overlays\/production: Deployment\/identity: spec\.replicas: .*integer/)]);
  });

  it('rejects an unknown field of the ServiceMonitor', async () => {
    const dir = copy();
    edit(dir, 'k8s/components/service-monitor/service-monitor.yaml', 'interval: 30s', 'intervall: 30s');

    await expect(check(dir, 'kubernetes-schema')).resolves.toEqual([
      'overlays/production: ServiceMonitor/game-wallet: spec.endpoints[0]: unknown field intervall',
    ]);
  });

  it('fails when a selector matches no Deployment', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/wallet/pdb.yaml', /(matchLabels:\n\s+app\.kubernetes\.io\/name:) wallet/, '$1 walet');

    await expect(check(dir, 'selectors')).resolves.toEqual([
      'overlays/development: PodDisruptionBudget/wallet: spec.selector matches the pods of no Deployment',
      'overlays/production: PodDisruptionBudget/wallet: spec.selector matches the pods of no Deployment',
    ]);
  });

  it('fails when a migration Job carries the labels its Deployment selects', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/migrations/core-migrate.yaml', /(labels:\n\s+app\.kubernetes\.io\/name:) core-migrate/g, '$1 core');

    const problems = await check(dir, 'selectors');
    expect(problems).toContain('overlays/production: Deployment/core: spec.selector also selects the pods of Job/core-migrate');
    expect(problems).toContain('overlays/production: Service/core-internal: spec.selector must match the pods of one Deployment, matches Deployment/core, Job/core-migrate');
  });

  it('fails when a probe uses a port the container does not declare', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/wallet/deployment.yaml', /(readinessProbe:\n\s+httpGet:\n\s+path: \/v1\/health\n\s+port:) internal/, '$1 health');

    await expect(check(dir, 'ports')).resolves.toEqual([
      'overlays/development: Deployment/wallet (wallet): readinessProbe uses port health, which the container does not declare',
      'overlays/production: Deployment/wallet (wallet): readinessProbe uses port health, which the container does not declare',
    ]);
  });

  it('fails when a network policy opens a port the pods do not have', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/common/network-policies.yaml', /(name: gateway-metrics[^]*?port:) metrics/, '$1 metrcs');

    await expect(check(dir, 'ports')).resolves.toContain('overlays/production: NetworkPolicy/gateway-metrics: ingress port metrcs is not a port of Deployment/gateway');
  });

  it('fails when a probe asks for a path the app does not serve', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/core/deployment.yaml', /(livenessProbe:\n\s+httpGet:\n\s+path:) \/v1\/health\/live/, '$1 /healthz');

    await expect(check(dir, 'probe-paths')).resolves.toContain(
      'overlays/production: Deployment/core (core): livenessProbe path /healthz is not a health path the core serves (/v1/health, /v1/health/live)',
    );
  });

  it('fails when a variable the app requires in production is not set', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/wallet/deployment.yaml', /\n\s+- name: WALLET_MASTER_KEYS\n(\s+.*\n){4}/, '\n');

    await expect(check(dir, 'environment')).resolves.toEqual([
      'overlays/development: Deployment/wallet (wallet): WALLET_MASTER_KEYS must be set (NODE_ENV=production) (apps/wallet/src/config.ts) but is not',
      'overlays/production: Deployment/wallet (wallet): WALLET_MASTER_KEYS must be set (NODE_ENV=production) (apps/wallet/src/config.ts) but is not',
    ]);
  });

  it('fails when the migration Job lacks its database URL (the only setting migrating needs)', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/migrations/identity-migrate.yaml', /\n\s+- name: IDENTITY_DATABASE_URL\n(\s+.*\n){4}/, '\n');

    await expect(check(dir, 'environment')).resolves.toEqual([
      'overlays/production: Job/identity-migrate (migrate): one of IDENTITY_DATABASE_URL, DATABASE_URL must be set (NODE_ENV=production) (libs/config/src/service-config.ts) but is not',
    ]);
  });

  it("fails when the gateway or its migration Job lacks the gateway's database URL, and asks for nothing else", async () => {
    const dir = copy();
    edit(dir, 'k8s/base/gateway/deployment.yaml', /\n\s+- name: GATEWAY_DATABASE_URL\n(\s+.*\n){4}/, '\n');
    edit(dir, 'k8s/overlays/production/migrations/gateway-migrate.yaml', /\n\s+- name: GATEWAY_DATABASE_URL\n(\s+.*\n){4}/, '\n');

    await expect(check(dir, 'environment')).resolves.toEqual([
      'overlays/development: Deployment/gateway (gateway): one of GATEWAY_DATABASE_URL, DATABASE_URL must be set (NODE_ENV=production) (apps/gateway/src/config.ts) but is not',
      'overlays/production: Deployment/gateway (gateway): one of GATEWAY_DATABASE_URL, DATABASE_URL must be set (NODE_ENV=production) (apps/gateway/src/config.ts) but is not',
      'overlays/production: Job/gateway-migrate (migrate): one of GATEWAY_DATABASE_URL, DATABASE_URL must be set (NODE_ENV=production) (apps/gateway/src/config.ts) but is not',
    ]);
  });

  it('fails when a variable is set that the app does not read', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/wallet.env', 'MIGRATIONS=job', 'MIGRATIONS=job\nKEYGEN_THREADS=2');

    await expect(check(dir, 'environment')).resolves.toEqual([
      expect.stringMatching(/^overlays\/production: Deployment\/wallet \(wallet\): KEYGEN_THREADS \(from ConfigMap wallet-config-\w+\) is not read by the wallet/),
      expect.stringMatching(/^overlays\/production: Job\/wallet-migrate \(migrate\): KEYGEN_THREADS/),
    ]);
  });

  it('fails when a Deployment reads a key its Secret template does not have', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/core/secret.template.yaml', 'REDIS_URL:', 'CORE_REDIS_URL:');

    await expect(check(dir, 'environment')).resolves.toContain(
      'overlays/production: Deployment/core (core): REDIS_URL: Secret game-wallet-core has no key REDIS_URL (see its template)',
    );
  });

  it('fails when a setting the app newly requires is missing from its Deployment', async () => {
    const dir = copy({ sources: true });
    edit(dir, 'apps/wallet/src/config.ts', 'const walletVariables = {', "const walletVariables = {\n  WALLET_CHAIN: z.enum(['main', 'test']),");

    await expect(check(dir, 'environment', { sources: true })).resolves.toEqual([
      'overlays/development: Deployment/wallet (wallet): WALLET_CHAIN must be set (apps/wallet/src/config.ts) but is not',
      'overlays/production: Deployment/wallet (wallet): WALLET_CHAIN must be set (apps/wallet/src/config.ts) but is not',
    ]);
  });

  it('fails when a Secret value is committed', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/wallet/secret.template.yaml', 'WALLET_MASTER_KEY_ID: "CHANGE-ME"', 'WALLET_MASTER_KEY_ID: "k1"');
    writeFileSync(
      join(dir, 'k8s/overlays/production/secret.yaml'),
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: game-wallet-core\ndata:\n  REDIS_URL: cmVkaXM6Ly9jb3JlOnMzY3JldEByZWRpczo2Mzc5\n',
    );

    await expect(check(dir, 'secrets')).resolves.toEqual([
      'base/wallet/secret.template.yaml: Secret/game-wallet-wallet commits a value for WALLET_MASTER_KEY_ID (only CHANGE-ME placeholders belong in the repository)',
      'overlays/production/secret.yaml: Secret/game-wallet-core commits a value for REDIS_URL (only CHANGE-ME placeholders belong in the repository)',
    ]);
  });

  it('fails when a kustomization generates a Secret from committed values', async () => {
    const dir = copy();
    const generator = 'secretGenerator:\n  - name: game-wallet-core\n    literals:\n      - REDIS_URL=rediss://core:s3cret@redis:6379\n';
    edit(dir, 'k8s/base/core/kustomization.yaml', 'configMapGenerator:', `${generator}\nconfigMapGenerator:`);

    const problems = await check(dir, 'secrets');
    expect(problems).toContain('base/core/kustomization.yaml: secretGenerator game-wallet-core: literal REDIS_URL commits a secret value');
    expect(problems).toContainEqual(expect.stringMatching(/^overlays\/production: renders Secret\/game-wallet-core-\w+ with committed values for REDIS_URL$/));
  });

  it('fails when an overlay renders a Secret, even one of placeholders', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/core/kustomization.yaml', '  - pdb.yaml\n', '  - pdb.yaml\n  - secret.template.yaml\n');

    await expect(check(dir, 'secrets')).resolves.toEqual([
      'overlays/development: renders Secret/game-wallet-core: applying it would replace the real Secret with placeholders',
      'overlays/production: renders Secret/game-wallet-core: applying it would replace the real Secret with placeholders',
    ]);
  });

  it("fails when an app takes its transport keys from another app's Secret", async () => {
    const dir = copy();
    edit(dir, 'k8s/base/core/deployment.yaml', /(secretKeyRef:\n\s+name:) game-wallet-core(\n\s+key: TRANSPORT_HMAC_KEYS\n)/, '$1 game-wallet-gateway$2');

    const problems = await check(dir, 'transport-keys');
    for (const overlay of ['development', 'production']) {
      expect(problems).toContain(
        `overlays/${overlay}: Deployment/core (core): TRANSPORT_HMAC_KEYS comes from Secret game-wallet-gateway, which belongs to the gateway: the core's keys must be its own`,
      );
      expect(problems).toContain(`overlays/${overlay}: core, gateway take their transport keys from one Secret, game-wallet-gateway: each app's keys must be its own`);
    }
  });

  it('fails when an app takes its transport keys from its ConfigMap', async () => {
    const dir = copy();
    edit(dir, 'k8s/base/wallet/deployment.yaml', /(- name: TRANSPORT_HMAC_KEY_ID\n\s+valueFrom:\n\s+)secretKeyRef:\n(\s+)name: game-wallet-wallet/, '$1configMapKeyRef:\n$2name: wallet-config');
    edit(dir, 'k8s/base/wallet/config.env', 'NODE_ENV=production', 'NODE_ENV=production\nTRANSPORT_HMAC_KEY_ID=t1');

    const problems = await check(dir, 'transport-keys');
    expect(problems).toContainEqual(expect.stringMatching(/^overlays\/production: Deployment\/wallet \(wallet\): TRANSPORT_HMAC_KEY_ID comes from ConfigMap wallet-config-\w+: it must come from the wallet's own Secret$/));
  });

  it("fails when docker-compose.yml gives an app another app's transport keys", async () => {
    const dir = copy();
    edit(dir, 'docker-compose.yml', 'TRANSPORT_HMAC_KEYS: ${WALLET_TRANSPORT_HMAC_KEYS:-}', 'TRANSPORT_HMAC_KEYS: ${GATEWAY_TRANSPORT_HMAC_KEYS:-}');

    await expect(check(dir, 'transport-keys')).resolves.toEqual([
      "docker-compose.yml: wallet, gateway are given the same TRANSPORT_HMAC_KEYS: each app's keys must be its own",
    ]);
  });

  it('accepts Redis Sentinel settings given to every app alike (the commented example of the production overlay)', async () => {
    const dir = copy();
    for (const app of APPS) {
      edit(dir, `k8s/overlays/production/${app}.env`, '# REDIS_SENTINELS=redis:26379\n# REDIS_SENTINEL_MASTER=mymaster', 'REDIS_SENTINELS=redis:26379\nREDIS_SENTINEL_MASTER=mymaster');
    }

    await expect(check(dir, 'redis-sentinel')).resolves.toEqual([]);
    await expect(check(dir, 'environment')).resolves.toEqual([]);
  });

  it('fails when REDIS_SENTINELS has an entry that is not host:port, or no master set, or one app follows other Sentinels', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/core.env', '# REDIS_SENTINELS=redis:26379', 'REDIS_SENTINELS=redis:26379,redis-sentinel-1');

    await expect(check(dir, 'redis-sentinel')).resolves.toEqual([
      'overlays/production: Deployment/core (core): REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER (the master set to follow) is not',
      'overlays/production: Deployment/core (core): REDIS_SENTINELS entry 2 is not host:port',
      expect.stringMatching(/^overlays\/production: the apps follow different Redis servers \(.*Deployment\/core: Sentinels of redis:26379,redis-sentinel-1, master set unset/),
    ]);
  });

  it('fails when the Sentinel password comes from a ConfigMap, or a Sentinel setting is given without Sentinels', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/wallet.env', '# REDIS_SENTINEL_MASTER=mymaster', 'REDIS_SENTINEL_MASTER=mymaster\nREDIS_SENTINEL_PASSWORD=hunter2');

    const problems = await check(dir, 'redis-sentinel');
    // (The Deployment takes it from its Secret, which overrides the ConfigMap; the migration Job has only the ConfigMap.)
    expect(problems).toContainEqual(expect.stringMatching(/^overlays\/production: Job\/wallet-migrate \(migrate\): REDIS_SENTINEL_PASSWORD comes from ConfigMap wallet-config-\w+: a password belongs in the app's Secret$/));
    expect(problems).toContain('overlays/production: Deployment/wallet (wallet): REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not (set both, or neither)');
  });

  it('fails when the grace period does not cover the gateway drain', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/gateway.env', 'SHUTDOWN_DRAIN_MS=5000', 'SHUTDOWN_DRAIN_MS=20000');

    await expect(check(dir, 'shutdown')).resolves.toEqual([
      'overlays/production: Deployment/gateway: terminationGracePeriodSeconds 25 must be above 30 s (drain 20000 ms + 10000 ms in flight)',
    ]);
  });

  it("fails when the wallet's CPU limit starts more key-generation threads than its memory holds", async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/patches/wallet.yaml', 'cpu: "2"', 'cpu: "16"');

    await expect(check(dir, 'wallet-memory')).resolves.toEqual([
      'overlays/production: Deployment/wallet (wallet): memory limit 384Mi is below 440Mi, the main process plus 16 key-generation thread(s) at 15Mi each',
    ]);
  });

  it('fails when a service waits for a migration Job that the overlay does not have', async () => {
    const dir = copy();
    edit(dir, 'k8s/overlays/production/kustomization.yaml', '  - migrations/wallet-migrate.yaml\n', '');

    await expect(check(dir, 'migrations')).resolves.toEqual([
      'overlays/production: Deployment/wallet: runs with MIGRATIONS=job but no Job runs migrate.js from its image registry.example.com/game-wallet-wallet:0.1.0',
    ]);
  });

  it('fails when docker-compose.yml has a key the Compose Specification does not', async () => {
    const dir = copy();
    edit(dir, 'docker-compose.yml', '  core:\n    <<: *app\n', '  core:\n    <<: *app\n    restart_policy: always\n');

    await expect(check(dir, 'compose')).resolves.toEqual(['docker-compose.yml: services.core: unknown key restart_policy']);
  });

  it('fails when the Dockerfile builds from node:latest', async () => {
    const dir = copy();
    edit(dir, 'Dockerfile', /^ARG NODE_IMAGE=.*$/m, 'ARG NODE_IMAGE=node:latest');

    await expect(check(dir, 'dockerfile')).resolves.toEqual([
      expect.stringMatching(/^Dockerfile:\d+: FROM node:latest: base image uses latest; pin an exact version$/),
      expect.stringMatching(/^Dockerfile:\d+: FROM node:latest/),
    ]);
  });

  it('fails when a FROM uses an ARG that is not declared before the first FROM', async () => {
    const dir = copy();
    // As the Dockerfile was before: APP declared only inside the stages, so `FROM app-${APP}` named `app-`.
    edit(dir, 'Dockerfile', /^ARG APP\n(?=[\s\S]*^FROM )/m, '');

    await expect(check(dir, 'dockerfile')).resolves.toEqual([
      expect.stringMatching(/^Dockerfile:\d+: FROM app-\$\{APP\}: \$\{APP\} is not declared by an ARG before the first FROM, so it is empty here; declare it there \(ARG APP\)$/),
    ]);
  });

  it('accepts a FROM that uses a global ARG or a platform ARG', async () => {
    const dir = copy();
    writeFileSync(
      join(dir, 'Dockerfile'),
      ['ARG BASE=node:22.22.0-bookworm-slim', 'FROM --platform=$BUILDPLATFORM ${BASE} AS build', 'FROM ${BASE}', 'USER 1000:1000', 'CMD ["node", "main.js"]'].join('\n'),
    );

    await expect(check(dir, 'dockerfile')).resolves.toEqual([]);
  });

  it('fails when the Dockerfile breaks its other rules', async () => {
    const dir = copy();
    writeFileSync(
      join(dir, 'Dockerfile'),
      [
        'FROM node:22-bookworm-slim',
        'WORKDIR app',
        'ADD https://example.com/tool.tgz /opt/',
        'RUN sudo apt-get update && apt-get install -y curl',
        'CMD node main.js',
      ].join('\n'),
    );

    await expect(check(dir, 'dockerfile')).resolves.toEqual([
      'Dockerfile:1: FROM node:22-bookworm-slim: base image is not pinned to an exact version (like node:22.11.0-bookworm-slim)',
      'Dockerfile:1: the final stage runs as root; add a non-root USER (e.g. USER 1000:1000)',
      'Dockerfile:2: WORKDIR app is not absolute',
      'Dockerfile:3: ADD of a URL; download in a RUN with a checksum, or COPY',
      'Dockerfile:4: RUN uses sudo',
      'Dockerfile:4: apt-get install without --no-install-recommends',
      'Dockerfile:4: apt-get install without rm -rf /var/lib/apt/lists/* in the same RUN',
      'Dockerfile:5: CMD in shell form; use the exec form (["node", "main.js"]) so signals reach the process',
    ]);
  });

  it("changes only the wallet's objects when the wallet's settings change", async () => {
    const dir = copy();
    const render = (): Map<string, string> =>
      new Map(
        parseAllDocuments(execFileSync('kubectl', ['kustomize', join(dir, 'k8s/overlays/production')], { encoding: 'utf8' }))
          .map((document) => document.toJSON() as { kind: string; metadata: { name: string } })
          .map((object) => [`${object.kind}/${object.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`, JSON.stringify(object)]),
      );
    const before = render();
    edit(dir, 'k8s/overlays/production/wallet.env', 'LOG_LEVEL=info', 'LOG_LEVEL=debug');
    const after = render();

    const changed = [...after.keys()].filter((key) => after.get(key) !== before.get(key));
    expect(changed.sort()).toEqual(['ConfigMap/wallet-config', 'Deployment/wallet', 'Job/wallet-migrate']);
  });
});
