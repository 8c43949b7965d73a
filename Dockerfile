# Secret Push as a container: compiled JavaScript on Node 20, production dependencies only,
# running as the unprivileged `node` user. Build: docker build -t secret-push .
# Run:   docker run -p 3000:3000 -v secret-push-data:/data -e MASTER_KEY=… -e BASE_URL=https://… secret-push
# (compose.yaml runs two instances on PostgreSQL.)

# 1. TypeScript → dist/, bundled by esbuild (scripts/build-server.mjs; needs the dev dependencies).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the postinstall prepares the browser extension's types, not needed here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY server ./server
COPY shared ./shared
COPY scripts ./scripts
RUN npm run build

# 2. Production dependencies only.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. The image: dist/ and node_modules, nothing else.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# `npm run users` and `npm run store:migrate` run the compiled commands through this launcher.
COPY package.json ./
COPY scripts/cli.mjs ./scripts/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains requests in flight for up to SHUTDOWN_TIMEOUT_SECONDS (default 20): give the
# container longer than that to stop (docker stop -t 30; Kubernetes terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
