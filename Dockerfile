# syntax=docker/dockerfile:1
# Both images of Sparks from one build: `--target api` (the NestJS api plus the built SPA it serves)
# and `--target worker` (consumes the BullMQ queues, serves no HTTP; scale it with
# `docker compose up --scale worker=3`). Build context = the repository root; docker-compose.yml
# builds both. By hand: `docker build --target api -t sparks-api .` and
# `docker build --target worker -t sparks-worker .`.

# ---- build: install the whole workspace, build, drop dev dependencies ---------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    SCARF_ANALYTICS=false \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

# Manifests first: this layer (npm ci) is reused until a package.json or the lockfile changes.
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/core/package.json libs/core/
COPY libs/db/package.json libs/db/
COPY libs/queues/package.json libs/queues/
COPY libs/knowledge/package.json libs/knowledge/
COPY libs/engine/package.json libs/engine/
COPY libs/domain/package.json libs/domain/
COPY libs/nest/package.json libs/nest/
COPY api/package.json api/
COPY worker/package.json worker/
COPY web/package.json web/
RUN npm ci

COPY . .
RUN npx tsc -b api/tsconfig.json worker/tsconfig.json \
 && npm run build -w web \
 && test -f web/dist/index.html

# Production dependencies only (npm prunes every workspace's devDependencies from the one tree),
# then gather exactly what runs, keeping the repository layout: the @sparks/* links in node_modules
# point at ../../libs/<name>, and libs/db/dist/migrate.js reads ../migrations. /out/common is what
# both processes need; /out/api and /out/worker what each adds.
RUN npm prune --omit=dev \
 && mkdir -p /out/common /out/api/api /out/api/web /out/worker/worker \
 && cp -a package.json node_modules /out/common/ \
 && for d in libs/*; do \
      mkdir -p "/out/common/$d" && cp -a "$d/package.json" "$d/dist" "/out/common/$d/"; \
      if [ -d "$d/node_modules" ]; then cp -a "$d/node_modules" "/out/common/$d/"; fi; \
    done \
 && cp -a libs/db/migrations /out/common/libs/db/ \
 && for app in api worker; do \
      cp -a "$app/package.json" "$app/dist" "/out/$app/$app/"; \
      if [ -d "$app/node_modules" ]; then cp -a "$app/node_modules" "/out/$app/$app/"; fi; \
    done \
 && cp -a web/dist /out/api/web/

# ---- runtime: what both images share ------------------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Uploaded documents (local-disk storage): the one place the processes write, a volume shared by
# the api and the workers.
RUN mkdir -p /data/uploads && chown node:node /data/uploads
ENV STORAGE_DIR=/data/uploads

# ---- the worker image ---------------------------------------------------------------------------
FROM runtime AS worker
# poppler's pdftotext/pdfinfo: the first PDF reader (run under prlimit, from util-linux, which the
# image has); without them the worker reads PDFs with pdf.js, several times slower.
RUN apt-get update \
 && apt-get install -y --no-install-recommends poppler-utils \
 && rm -rf /var/lib/apt/lists/*
# Files stay owned by root: the process (user node) reads them and writes nothing here.
COPY --from=build /out/common/ /app/
COPY --from=build /out/worker/ /app/
USER node
CMD ["node", "worker/dist/main.js"]

# ---- the api image (the default target) ---------------------------------------------------------
FROM runtime AS api
ENV PORT=3000 \
    HOST=0.0.0.0 \
    WEB_DIST=/app/web/dist
COPY --from=build /out/common/ /app/
COPY --from=build /out/api/ /app/
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "api/dist/main.js"]
