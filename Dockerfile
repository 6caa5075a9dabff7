# One container: the compiled binary (Bun runtime + app + migrations + browser assets) on a glibc base.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Installed without the packages' install scripts. The `bun` devDependency (the host's test runner) links
# node_modules/.bin/bun to a placeholder that only its skipped install script replaces, and `bun run` puts
# node_modules/.bin first on PATH: the links are removed so the scripts below run this image's own Bun.
RUN bun install --frozen-lockfile --ignore-scripts \
  && rm -f node_modules/.bin/bun node_modules/.bin/bunx
COPY . .
RUN bun run compile

FROM debian:bookworm-slim
# tzdata: TZ=Area/City works for the process clock too; ca-certificates: TLS to WhatsApp and webhooks; tini: see
# ENTRYPOINT.
RUN apt-get update && apt-get install -y --no-install-recommends tzdata ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 65532 zapdesk \
  && useradd --system --uid 65532 --gid zapdesk --home-dir /data --no-create-home --shell /usr/sbin/nologin zapdesk \
  && mkdir -p /data /media && chown zapdesk:zapdesk /data /media && chmod 700 /data /media
COPY --from=build /app/dist/zapdesk /usr/local/bin/zapdesk
ENV DATA_DIR=/data PORT=8080 HOST=0.0.0.0 TZ=UTC
# A new named volume takes the owner of the directory it is mounted on, so the server can write to it:
# /data, and /media where nodes sharing a database mount their shared media volume (MEDIA_DIR=/media).
VOLUME /data
EXPOSE 8080
USER zapdesk
# SIGTERM drains work and checkpoints the database; give it time before Docker kills the process.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["zapdesk", "healthcheck"]
# tini is PID 1 and passes signals on: the kernel ignores a signal PID 1 has no handler for yet, so a stop while
# Zapdesk starts would otherwise wait for the whole grace period.
ENTRYPOINT ["tini", "--", "zapdesk"]
