# Task Tree in two stages: build with dev dependencies, run with production ones only.
#
# Docker cannot build on the machine this was written on, so scripts/container-check.sh (run by
# .ci/run) replays this file outside Docker on every CI run: each RUN line of the build stage, in
# order, in a copy of the build context, then each `COPY --from=build` line of the runtime stage,
# then the CMD and the HEALTHCHECK. Keep one instruction per line (no backslash continuations)
# and keep build-stage RUN lines free of anything that needs root or a package manager.

FROM node:24-bookworm AS build
WORKDIR /app
# Dependencies first, so this layer is reused until the lockfile changes. Install scripts wait
# for the sources: `prepare` (the build) needs them.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# Native addons (better-sqlite3 for Node 20 and, under its alias, for Node-API 10 runtimes; argon2).
RUN npm rebuild
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
ENV HOST=0.0.0.0
ENV PORT=8080
ENV DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/scripts/healthcheck.mjs ./scripts/healthcheck.mjs
# The app's files stay root-owned and read-only to the service; only /data is its to write.
RUN mkdir -p /data && chown node:node /data && ln -s /app/bin/tasktree.js /usr/local/bin/tasktree
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "dist/main.js"]
