# Game Wallet Platform: one image per app, all built from this file.
#
#   docker build --build-arg APP=gateway  -t game-wallet-gateway  .
#   docker build --build-arg APP=identity -t game-wallet-identity .
#   docker build --build-arg APP=wallet   -t game-wallet-wallet   .
#   docker build --build-arg APP=core     -t game-wallet-core     .
#
# APP is required and must be one of gateway, identity, wallet, core. The build and prod-deps stages do not depend
# on APP, so the four images share their cached layers and differ only in the last few.
#
# Signals: node runs as PID 1 (exec-form CMD, no shell in between) and installs its own SIGTERM/SIGINT handlers,
# which stop taking work and finish what is in flight within 10 s. No app spawns child processes, so there are no
# zombies to reap and no init process (tini, `docker run --init`) is needed.

ARG NODE_IMAGE=node:20-bookworm-slim
ARG APP

# ---- build: compile every app and lib to dist/ (plain CommonJS, path aliases rewritten), and the web console ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
RUN node tools/build.mjs

# ---- prod-deps: runtime dependencies only ----
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime: dist/ of one app and its libs, production node_modules, package.json; non-root ----
FROM ${NODE_IMAGE} AS runtime
ARG APP
# The memory budget every app is soak-tested with (npm run soak: under 200 MB RSS each): a bounded old space, and a
# small young generation (V8 otherwise lets it grow to tens of MB before collecting).
ENV NODE_ENV=production \
    APP=${APP} \
    NODE_OPTIONS="--max-old-space-size=160 --max-semi-space-size=4"
LABEL org.opencontainers.image.title="game-wallet-${APP}" \
      org.opencontainers.image.description="Game Wallet Platform: ${APP}"
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist/libs ./dist/libs
COPY --from=build /app/dist/apps/${APP}/src ./dist/apps/${APP}/src
# Files stay owned by root and read-only to the app; the process runs as the image's unprivileged `node` user
# (numeric, so Kubernetes can verify runAsNonRoot). Logs go to stdout. The only writable path is the data folder,
# used in development alone (generated development keys; mount a volume there to keep them): in production every
# key comes from the environment and the root filesystem can be read-only.
RUN mkdir -p /app/.data/transport && chown -R 1000:1000 /app/.data
USER 1000:1000
STOPSIGNAL SIGTERM

# ---- one final stage per app: its ports and its entry point ----
FROM runtime AS app-gateway
# The web console's static files (served at /console, precompressed), owned by root and read-only like the code.
COPY --from=build /app/dist/apps/console ./dist/apps/console
# 3000 base_url (profile, wallet, health, JWKS, console), 3001 core_url (player), 3100 internal /metrics
EXPOSE 3000 3001 3100
CMD ["node", "dist/apps/gateway/src/main.js"]

FROM runtime AS app-identity
# internal port: /v1/health, /v1/health/live, /metrics (traffic arrives over Redis Streams)
EXPOSE 3101
CMD ["node", "dist/apps/identity/src/main.js"]

FROM runtime AS app-wallet
EXPOSE 3102
CMD ["node", "dist/apps/wallet/src/main.js"]

FROM runtime AS app-core
EXPOSE 3103
CMD ["node", "dist/apps/core/src/main.js"]

# The image that is built: the stage of the app named by APP.
FROM app-${APP}
