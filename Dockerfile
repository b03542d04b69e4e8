# syntax=docker/dockerfile:1
# loyalty-sim as a CI service container. Build: docker build -t loyalty-sim .

# --- build: compile TypeScript with the dev dependencies -------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are copied.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- runtime: production dependencies and the compiled output only ---------------------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    LOYALTY_SIM_HOST=0.0.0.0 \
    LOYALTY_SIM_PORT=4747
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY openapi ./openapi
COPY assets ./assets
COPY README.md ./
# /sim: mount your fixture and scenario files here (read-only is fine).
# /data: a writable volume for LOYALTY_SIM_DATA=/data/state.json.
RUN mkdir -p /sim /data && chown node:node /data
USER node
EXPOSE 4747
# Absolute paths: `docker run -w` or compose's working_dir must not break the check or the start.
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=5 CMD ["node", "/app/dist/cli/healthcheck.js"]
# The CLI is the entrypoint, so `docker run loyalty-sim --seed 42` passes its flags to it (the base
# image's entrypoint would hand them to node). Exec form: node is PID 1 and receives SIGTERM,
# which closes the server and flushes --data.
ENTRYPOINT ["node", "/app/dist/cli/bin.js"]
