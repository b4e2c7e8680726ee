# One image for every service; SERVICE picks which one runs (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund
ENV NODE_ENV=production HOST=0.0.0.0
ARG SERVICE=api-gateway
ENV SERVICE=${SERVICE}
USER node
CMD ["sh", "-c", "exec node --import tsx services/${SERVICE}/src/main.ts"]
