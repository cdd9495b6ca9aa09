# The add-in server for Excel as a container: the built pane (dist/excel) and the server bundled
# for Node (dist/server/main.js), run as a non-root user with production dependencies only.
# Build: docker build -t reporting-addin-server .
# Run:   docker run -p 8080:8080 -e TENANT_ORIGINS=https://acme.reporting.example.com \
#          -e ADDIN_BASE_URL=https://addin.example.com reporting-addin-server
# See docs/deploy.md.

# 1. Build, with the development dependencies (Vite, TypeScript, the Office tooling).
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. The production dependencies alone (no install script runs).
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. What runs: Node, the production dependencies and dist/ (owned by root, read-only to the server).
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    TENANT_ORIGINS="" \
    DATA_ORIGINS="" \
    ADDIN_BASE_URL="" \
    SHUTDOWN_GRACE_MS=25000 \
    LOG_FORMAT=json
WORKDIR /app
# package.json says "type": "module": dist/server/main.js is an ES module.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/excel ./dist/excel
COPY --from=build /app/dist/server ./dist/server
USER node
EXPOSE 8080
# TLS ends at the load balancer by default; to serve HTTPS here, mount a certificate and key and
# pass --cert /certs/tls.crt --key /certs/tls.key (with --host 0.0.0.0: arguments replace CMD).
# Orchestrators probe /readyz and /healthz themselves, so there is no HEALTHCHECK (the image has no
# curl, and a check over plain HTTP would fail for a server given a certificate).
ENTRYPOINT ["node", "dist/server/main.js"]
CMD ["--host", "0.0.0.0"]
