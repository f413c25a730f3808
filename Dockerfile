# Rampart: build the TypeScript, then run it with production dependencies only.
# Redis must run with maxmemory-policy noeviction and AOF persistence (see docker-compose.yml).

# --- build: all dependencies, compile src/ to dist/ ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: the lockfile lacks the optional per-platform packages (Biome,
# msgpackr-extract), which npm ci refuses; npm install still follows the lockfile's versions.
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- runtime: production dependencies and the compiled code, as the unprivileged node user ---
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The chart font, read at run time beside dist/.
COPY assets ./assets
USER node
EXPOSE 3000
# Liveness (docs/http-and-probes.md): orchestrators that act on this check (Swarm, ECS)
# replace an unhealthy container, and a restart only helps a process that is stuck, never one
# whose Redis or service is down. docker-compose.yml checks /readyz instead. No curl in the slim
# image; node's fetch does the check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/main.js"]
