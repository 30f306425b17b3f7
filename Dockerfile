# Game Wallet Platform: one image per app, each built from this file with only that app's code.
#
#   docker build --build-arg APP=gateway  -t game-wallet-gateway:0.1.0  .
#   docker build --build-arg APP=identity -t game-wallet-identity:0.1.0 .
#   docker build --build-arg APP=wallet   -t game-wallet-wallet:0.1.0   .
#   docker build --build-arg APP=core     -t game-wallet-core:0.1.0     .
#
# APP is required: gateway, identity, wallet or core (without it the last FROM names no stage: `FROM app-`). The
# image holds the app's bundle (`nx build <app>`: its own code and the libs it imports, in one file per entry point,
# without source maps), the packages its generated package.json lists (production only, from the pruned lockfile),
# and, for the gateway, the web console's static files. No test code, no other app, no build tools.
#
# Signals: tini is PID 1; it forwards SIGTERM to node, which stops taking work and finishes what is in flight (the
# gateway first drains for SHUTDOWN_DRAIN_MS), and it reaps any process left behind.

# The base image: Node 22 LTS, pinned to a release (node:22.22.0-bookworm-slim is on Docker Hub; pin its digest too,
# `node:22.22.0-bookworm-slim@sha256:…`, where the registry is reachable). The code also runs on Node 20.19+ (what the
# tests run on). A machine that reaches no registry builds a stand-in under the same name: deploy/ci/base-image.sh.
ARG NODE_IMAGE=node:22.22.0-bookworm-slim
# Which app's image to build; global, because the last FROM names the app's stage with it.
ARG APP

# ---- tools: build tools for the one native addon (pkcs11js, optional: without them npm would leave it out) ----
# Everything up to the per-app stages below is the same for the four apps, so the first build fills the layer cache
# and the next three start from it.
FROM ${NODE_IMAGE} AS tools
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*

# ---- workspace: every package of the lockfile and the sources of every app (shared by the four builds) ----
FROM tools AS workspace
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY nx.json tsconfig.base.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps

# ---- build: the app's bundle and generated package.json (and the console, for the gateway) ----
FROM workspace AS build
ARG APP
RUN test -n "${APP}" || { echo "APP must be set: --build-arg APP=gateway|identity|wallet|core" >&2; exit 1; }
RUN NX_DAEMON=false npx nx run "${APP}:build" --configuration=production --outputStyle=static --skip-nx-cache \
 && mkdir -p /out \
 && cp -r "dist/apps/${APP}/." /out/ \
 && if [ "${APP}" = gateway ]; then cp -r dist/apps/console /out/console; fi \
 && find /out \( -name '*.map' -o -name meta.json \) -delete

# ---- deps: the production packages this app imports, exactly as locked ----
# No install scripts (the one in swagger-ui-dist's dependency @scarf/scarf would report the installation to a third
# party), except the one native addon: the wallet's pkcs11js (master keys in an HSM), compiled here with the build
# tools of this stage, which stay out of the image.
# `typescript` is not loaded at run time: npm installs it only as a peer of @gql.tada/internal (@mysten/sui →
# gql.tada, the type-level GraphQL helper), whose code the wallet never reaches; it is 23 MB, so it is removed, and
# the step fails should anything else come to depend on it (the deploy smoke test signs with the Sui key in the image).
FROM tools AS deps
WORKDIR /app
COPY --from=build /out/package.json /out/package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
RUN if [ -d node_modules/pkcs11js ]; then \
      npm rebuild pkcs11js \
      && rm -rf node_modules/pkcs11js/build/Release/obj.target node_modules/pkcs11js/build/Release/.deps; \
    fi
COPY deploy/image/prune-typescript.cjs /tmp/
RUN node /tmp/prune-typescript.cjs /app

# ---- base: what every app's runtime has (shared by the four builds) ----
FROM ${NODE_IMAGE} AS base
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*
WORKDIR /app
RUN mkdir -p /app/.data/transport && chown -R 1000:1000 /app/.data

# ---- runtime ----
FROM base AS runtime
ARG APP
# The memory budget every app is soak-tested with (npm run soak: under 200 MB RSS each): a bounded old space, a
# small young generation (V8 otherwise lets it grow to tens of MB before collecting), and two glibc malloc arenas
# (else up to 8 per core, one per thread that allocates: the wallet's key worker threads, libuv's pool, V8's
# helpers; about 6 MB less RSS for the wallet under signing load, npm run bench).
ENV NODE_ENV=production \
    APP=${APP} \
    MALLOC_ARENA_MAX=2 \
    NODE_OPTIONS="--max-old-space-size=160 --max-semi-space-size=4"
LABEL org.opencontainers.image.title="game-wallet-${APP}" \
      org.opencontainers.image.description="Game Wallet Platform: ${APP}"
# Files stay owned by root and read-only to the app; the process runs as the image's unprivileged `node` user
# (numeric, so Kubernetes can verify runAsNonRoot). Logs go to stdout. The only writable path is the data folder,
# used in development alone (generated development keys; mount a volume there to keep them): in production every
# key comes from the environment and the root filesystem can be read-only.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /out/ ./
USER 1000:1000
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
# Also in the image: migrate.js (every app: its schema's migrations, for MIGRATIONS=job), and the
# operator commands cli/rewrap.js and cli/hsm-create-key.js (wallet), cli/rotate-signing-key.js and
# cli/create-operator.js (identity: `node cli/create-operator.js --email you@example.com` prints a one-time invitation
# link for the first owner) and cli/audit-verify.js (identity: checks a game's audit export). With
# WALLET_MASTER_KEY_PROVIDER=pkcs11 the HSM vendor's PKCS#11 module (.so) is mounted into the wallet's container.
CMD ["node", "main.js"]

# ---- one final stage per app: the ports it listens on ----
FROM runtime AS app-gateway
# 3000 base_url (profile, wallet, health, JWKS, console), 3001 core_url (player), 3100 internal /metrics
EXPOSE 3000 3001 3100
# The gateway's garbage collector works on its own thread (--single-threaded-gc): it allocates the most per request,
# and with helper threads a collection waits for them while other processes hold the pod's CPUs, which showed as p99
# latency (npm run bench, 2 CPUs, 64 connections: wallet read p99 12-13 against 16-19 ms). The services keep V8's
# background threads: the wallet's RSS grew faster without them (soak: +9.2 % against +6.4 %).
CMD ["node", "--single-threaded-gc", "main.js"]

FROM runtime AS app-identity
# internal port: /v1/health, /v1/health/live, /metrics (traffic arrives over Redis Streams)
EXPOSE 3101

FROM runtime AS app-wallet
EXPOSE 3102
# The wallet's young generation is half the others' (--max-semi-space-size=2 over NODE_OPTIONS' 4): beside its key
# worker threads (each a V8 heap of its own) it stays under 200 MB RSS through the signing benchmarks (npm run bench:
# 181 against 194 MB after every chain's routes and player creation), for more frequent, shorter scavenges.
CMD ["node", "--max-semi-space-size=2", "main.js"]

FROM runtime AS app-core
EXPOSE 3103

# The image that is built: the stage of the app named by APP.
FROM app-${APP}
