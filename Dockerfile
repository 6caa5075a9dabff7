# One container: the compiled binary (Bun runtime + app + migrations + browser assets) on a glibc base.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN bun install --frozen-lockfile --ignore-scripts || npm ci --ignore-scripts
COPY . .
RUN bun run compile

FROM debian:bookworm-slim
COPY --from=build /app/dist/zapdesk /usr/local/bin/zapdesk
ENV DATA_DIR=/data PORT=8080
VOLUME /data
EXPOSE 8080
USER 65532
ENTRYPOINT ["zapdesk"]
