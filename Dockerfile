# syntax=docker/dockerfile:1
# One image per service: `--build-arg SERVICE=<name>` picks which one runs (see docker-compose.yml); the target
# `wallet-receiver` is the reference receiver. Stage 1 builds the JavaScript; the runtime stage holds only the
# bundles, the migrations, the package manifests and the production dependencies, and runs as the `node` user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
# npm ci runs the build step (the root `prepare` script: scripts/build.mjs).
RUN npm ci --no-audit --no-fund
# What the runtime needs and nothing else (package manifests, dist/, migrations/, bin/): scripts/runtime-tree.sh.
RUN sh scripts/runtime-tree.sh /out

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build /out/ ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
USER node

FROM runtime AS wallet-receiver
ENV PORT=4000
CMD ["node", "--enable-source-maps", "examples/wallet-receiver/dist/main.js"]

FROM runtime AS service
ARG SERVICE=api-gateway
ENV SERVICE=${SERVICE}
CMD ["sh", "-c", "exec node --enable-source-maps --no-memory-reducer services/${SERVICE}/dist/main.js"]
