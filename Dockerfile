# syntax=docker/dockerfile:1.7
#
# Helix's image: one image for the API (`web`), the worker, the viewer host and the release step, as in
# the Procfile; the command picks the process. A second target, `proxy`, is nginx with the built web
# app's hashed assets and the configuration template (ops/nginx). docs/deploying.md explains both.
#
#   docker build -t helix .                      # the app
#   docker build -t helix-proxy --target proxy . # nginx in front of it
#
# Stages: deps (npm ci, cached on the lock file) -> build (Prisma client, `npm run build`: the web app,
# the viewer and the compiled Node processes in <app>/dist-node, then dev dependencies pruned) ->
# app (non-root, only what runs) and proxy.

ARG NODE_VERSION=22
ARG NGINX_VERSION=1.27

# --- dependencies -----------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
# Every workspace's manifest, so `npm ci` can be cached on them alone.
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY apps/worker/package.json apps/worker/
COPY apps/viewer/package.json apps/viewer/
COPY packages/config/package.json packages/config/
COPY packages/demo-content/package.json packages/demo-content/
COPY packages/server/package.json packages/server/
COPY packages/shared/package.json packages/shared/
COPY packages/stack/package.json packages/stack/
COPY packages/stripe-local/package.json packages/stripe-local/
# The postinstall (Prisma client) runs in the build stage, with the sources there.
RUN npm ci --no-audit --no-fund --ignore-scripts

# --- build ------------------------------------------------------------------------------------------
FROM deps AS build
COPY . .
ENV NODE_ENV=production
# The Prisma client (packages/server/src/generated), then the web app, the viewer and the compiled
# processes (apps/api/dist-node/main.js, apps/worker/dist-node/main.js, apps/viewer/dist-node/serve.js,
# packages/stack/dist-node/db-migrate.js and db-seed.js). The web app's source maps are moved out of
# the served folder by the build; they are not copied into the image.
RUN npm run db:generate \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf apps/web/sourcemaps .git

# --- the app: web (API), worker, viewer, release --------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS app
ENV NODE_ENV=production \
    PORT=3000 \
    VIEWER_PORT=3001 \
    WEB_DIST_DIR=/app/apps/web/dist \
    HELIX_PROCESS=web
WORKDIR /app
# The image's own `node` user (uid 1000): nothing runs as root, and the files are not its to change.
COPY --from=build --chown=root:root /app /app
# The local storage folder, only for a single-container trial: a deployment sets S3_* (docs/deploying.md).
RUN mkdir -p /app/.data/storage && chown node:node /app/.data/storage
USER node
EXPOSE 3000 3001
# Liveness per process (ops/docker/healthcheck.mjs reads HELIX_PROCESS): the API and the viewer answer
# HTTP; the worker answers its metrics port when one is set.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "ops/docker/healthcheck.mjs"]
# The Procfile's processes, with plain node (no tsx, no Vite at run time). Pick one with the command:
#   web:     node --enable-source-maps apps/api/dist-node/main.js          (HELIX_PROCESS=web)
#   worker:  node --enable-source-maps apps/worker/dist-node/main.js       (HELIX_PROCESS=worker)
#   viewer:  node --enable-source-maps apps/viewer/dist-node/serve.js      (HELIX_PROCESS=viewer)
#   release: node packages/stack/dist-node/db-migrate.js                   (HELIX_PROCESS=release)
# Node is PID 1 and handles SIGTERM itself (the API drains, the worker finishes its jobs); run with
# `--init` (compose: init: true) so zombie children (the worker's image rasteriser) are reaped.
CMD ["node", "--enable-source-maps", "apps/api/dist-node/main.js"]

# --- the proxy: nginx with the hashed assets ---------------------------------------------------------
# nginx's unprivileged image: the master process runs as uid 101 too, on ports above 1024.
FROM nginxinc/nginx-unprivileged:${NGINX_VERSION}-alpine AS proxy
# The image renders /etc/nginx/templates/*.template into /etc/nginx/conf.d with envsubst at start;
# only the HELIX_* variables set in its environment are replaced (docker-compose.yml).
COPY ops/nginx/templates/ /etc/nginx/templates/
COPY --from=build /app/apps/web/dist/assets/ /srv/helix/web/assets/
USER root
# The image's own server on 8080 would take the portal's port.
RUN rm -f /etc/nginx/conf.d/default.conf
USER 101
ENV HELIX_WEB_DIST=/srv/helix/web \
    HELIX_ACCESS_LOG=/dev/stdout \
    HELIX_MAX_BODY=60m \
    HELIX_PORTAL_LISTEN=8080 \
    HELIX_VIEWER_LISTEN=8081 \
    HELIX_RESOLVER="resolver 127.0.0.11 valid=10s ipv6=off;"
EXPOSE 8080 8081
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/nginx-health"]
