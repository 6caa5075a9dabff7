# One container: the compiled binary (Bun runtime + app + migrations + browser assets) on a glibc base.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN bun install --frozen-lockfile --ignore-scripts || npm ci --ignore-scripts
COPY . .
RUN bun run compile

FROM debian:bookworm-slim
# tzdata: TZ=Area/City works for the process clock too; ca-certificates: TLS to WhatsApp and webhooks.
RUN apt-get update && apt-get install -y --no-install-recommends tzdata ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 65532 zapdesk \
  && useradd --system --uid 65532 --gid zapdesk --home-dir /data --no-create-home --shell /usr/sbin/nologin zapdesk \
  && mkdir -p /data && chown zapdesk:zapdesk /data && chmod 700 /data
COPY --from=build /app/dist/zapdesk /usr/local/bin/zapdesk
ENV DATA_DIR=/data PORT=8080 HOST=0.0.0.0 TZ=UTC
# A named volume copies this directory's owner the first time it is mounted, so the server can write to it.
VOLUME /data
EXPOSE 8080
USER zapdesk
# SIGTERM drains work and checkpoints the database; give it time before Docker kills the process.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["zapdesk", "healthcheck"]
ENTRYPOINT ["zapdesk"]
