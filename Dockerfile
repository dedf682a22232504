# syntax=docker/dockerfile:1
#
# tool-parse HTTP service. Build: docker build -t tool-parse:0.1.0 .
# Run:   docker run --rm -p 8080:8080 --cpus 2 -e THREADS=2 tool-parse:0.1.0
# As a sidecar in front of an OpenAI-compatible model server, add its base URL to the environment:
#        docker run ... -e UPSTREAM_URL=http://vllm:8000/v1 tool-parse:0.1.0
# (POST /v1/chat/completions and GET /v1/models are then served; /readyz also reaches the
# upstream's /v1/models, while the HEALTHCHECK stays on /healthz, which never depends on it).
#
# Node 24 is an LTS line (supported until April 2028) and the target; Node 22 is the floor
# (package.json engines). Pin the base by digest in CI.
ARG NODE_VERSION=24

# Production dependencies only, from the lock file.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# Compile TypeScript (src, workers, bin) to dist/.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
COPY bin ./bin
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# tini is PID 1: it forwards SIGTERM to node and reaps zombies (Kubernetes has no --init).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0
WORKDIR /app
# Files stay root-owned and read-only to the service user.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/server/start.js"]
