#!/usr/bin/env bash
# Builds the Dockerfile with podman and checks the image as the deploy recipes run it: health, /data owned by the
# image's user (0700), the health check, a backup inside the container, a stop within its grace period with exit
# code 0, data kept across a restart, and a new media volume at /media (MEDIA_DIR, as the cluster compose mounts
# it) writable by that user; then the cluster compose, with podman-compose: both nodes serve behind Caddy and stay
# up, a token one node issued works on the other, when the node running a (sandbox) WhatsApp connection is
# stopped the other takes the connection over and stores what the customer sends, and PostgreSQL's dump and the
# media volume's tar restore as the README writes them. A restore of the image's own backup is checked too, and
# the systemd unit runs the image's binary under systemd (a privileged container) where the README's
# systemd-run backup and restore are run as written. Debian packages: podman buildah debootstrap runc podman-compose golang-github-containernetworking-plugin-dnsname
# (service names on compose networks).
#
# No container registry is needed: the Dockerfile's base images are made locally under its own FROM names when
# they are missing, the Debian one by debootstrap from the archive apt uses, the Bun one from that Debian image
# and the `bun` binary of node_modules (or the npm package @oven/bun-linux-x64 of the Dockerfile's version).
#   scripts/container-check.sh            (as root; .ci/run runs it when CONTAINER_CHECK=1)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
name=zapdesk-check-$$
cleanup() {
  podman rm -f "$name" "$name-systemd" >/dev/null 2>&1 || true
  podman volume rm -f "$name-data" "$name-media" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
say() { printf '== %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

# This kind of VM: cgroups v1/v2 hybrid (crun refuses it), and podman's default ulimits (the maximum) cannot be
# set in a container here (runc: "error setting rlimit ... operation not permitted"): lower ones can.
cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$work/containers.conf"

debian=docker.io/library/debian:bookworm-slim
bun_version=$(sed -n 's/^FROM oven\/bun:\([0-9.]*\).*/\1/p' Dockerfile)
bun_image=docker.io/oven/bun:$bun_version

if ! podman image exists "$debian"; then
  say "making $debian with debootstrap"
  mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase bookworm "$work/rootfs" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log"
  # As the official slim image: no package lists, docs, man pages or locales.
  rm -rf "$work"/rootfs/var/lib/apt/lists/* "$work"/rootfs/usr/share/{doc,man,locale}/*
  tar -C "$work/rootfs" -c . | podman import --change 'CMD ["bash"]' - "$debian" >/dev/null
fi

if ! podman image exists "$bun_image"; then
  say "making $bun_image"
  mkdir -p "$work/bun"
  local_bun=node_modules/bun/bin/bun.exe
  if [ -x "$local_bun" ] && [ "$("$local_bun" --version)" = "$bun_version" ]; then
    cp "$local_bun" "$work/bun/bun"
  else
    (cd "$work/bun" && npm pack --silent "@oven/bun-linux-x64@$bun_version" >/dev/null && tar -xzf ./*.tgz)
    cp "$work/bun/package/bin/bun" "$work/bun/bun"
  fi
  # Package downloads may go through an intercepting proxy: Bun trusts the machine's CA bundle too.
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$work/bun/extra-ca.crt"
  cat >"$work/bun/Containerfile" <<CONTAINERFILE
FROM $debian
COPY bun /usr/local/bin/bun
COPY extra-ca.crt /etc/ssl/certs/extra-ca.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/extra-ca.crt
RUN chmod 755 /usr/local/bin/bun && ln -s bun /usr/local/bin/bunx \\
  && groupadd --gid 1000 bun && useradd --uid 1000 --gid bun --create-home bun && mkdir -p /home/bun/app
WORKDIR /home/bun/app
CMD ["bun"]
CONTAINERFILE
  podman build --quiet --pull=never -t "$bun_image" "$work/bun" >/dev/null
fi

say "building zapdesk:latest"
# --format docker keeps the HEALTHCHECK, which the OCI format drops.
podman build --quiet --format docker --pull=never --network host -t zapdesk:latest . >/dev/null

# A stop ends the container well within its grace period, with exit code 0 once the server is up (a stop while
# it starts ends it by the signal).
stop_within_grace() {
  local started
  started=$(date +%s)
  podman stop -t 30 "$name" >/dev/null 2>>"$work/podman.log"
  [ $(($(date +%s) - started)) -lt 30 ] || fail "the stop ($1) took the whole grace period"
  [ "$1" = "while starting" ] || [ "$(podman inspect -f '{{.State.ExitCode}}' "$name")" = 0 ] ||
    fail "exit code on stop ($1) is not 0"
}
wait_healthy() {
  for _ in $(seq 100); do
    curl -fsS http://127.0.0.1:18765/health >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  fail "/health does not answer: $(podman logs "$name" 2>&1 | tail -1)"
}

say "running the image"
admin='{"email":"admin@check.test","password":"check-admin-password"}'
podman run -d --name "$name" --network host -e PORT=18765 -e ADMIN_EMAIL=admin@check.test \
  -e ADMIN_PASSWORD=check-admin-password -v "$name-data:/data" zapdesk:latest >/dev/null 2>>"$work/podman.log" ||
  fail "podman run: $(tail -1 "$work/podman.log")"
wait_healthy
curl -fsS http://127.0.0.1:18765/health | grep -q '"status":"ok"' || fail "/health does not answer ok"
[ "$(podman exec "$name" stat -c '%u %a' /data)" = "65532 700" ] || fail "/data is not 65532's with mode 700"
podman healthcheck run "$name" >/dev/null || fail "the image's health check fails"
podman exec "$name" zapdesk backup --out /data/backups/check.tar --with-media >/dev/null || fail "backup in the container"

say "stopping it, running and while it starts"
stop_within_grace "running"
podman start "$name" >/dev/null 2>>"$work/podman.log"
stop_within_grace "while starting"

say "restarting it"
podman start "$name" >/dev/null 2>>"$work/podman.log"
wait_healthy
podman exec "$name" test -f /data/backups/check.tar || fail "the data did not survive a restart"

say "restoring the backup as the README's compose recipe does: the server stopped, in a container of its own"
login() { curl -sS -X POST http://127.0.0.1:18765/api/auth/login -H "content-type: application/json" --data "$1"; }
later='{"email":"later@check.test","password":"check-later-password"}'
token=$(login "$admin" | grep -o '"token":"[^"]*"' | cut -d'"' -f4 || true)
[ -n "$token" ] || fail "the admin cannot log in"
curl -fsS -X POST http://127.0.0.1:18765/api/users -H "authorization: Bearer $token" -H "content-type: application/json" \
  --data '{"name":"Later","email":"later@check.test","password":"check-later-password"}' >/dev/null ||
  fail "no user created after the backup"
login "$later" | grep -q '"token"' || fail "the user created after the backup cannot log in"
podman cp "$name:/data/backups/check.tar" "$work/check.tar"
chmod 644 "$work/check.tar"
stop_within_grace "after a restart"
podman run --rm --network none -v "$name-data:/data" -v "$work/check.tar:/restore.tar:ro" zapdesk:latest \
  restore /restore.tar --force >/dev/null 2>>"$work/podman.log" || fail "restore: $(tail -1 "$work/podman.log")"
podman start "$name" >/dev/null 2>>"$work/podman.log"
wait_healthy
[ "$(podman exec "$name" stat -c '%u' /data/zapdesk.sqlite)" = 65532 ] || fail "the restored database is not the image user's"
login "$admin" | grep -q '"token"' || fail "the admin of the backup cannot log in after the restore"
login "$later" | grep -q '"token"' && fail "the user created after the backup is still there after the restore"
stop_within_grace "after the restore"
podman rm -f "$name" >/dev/null 2>>"$work/podman.log"

say "a new media volume at /media, as the cluster compose mounts it"
podman run -d --name "$name" --network host -e PORT=18765 -e MEDIA_DIR=/media \
  -v "$name-data:/data" -v "$name-media:/media" zapdesk:latest >/dev/null 2>>"$work/podman.log" || fail "podman run: $(tail -1 "$work/podman.log")"
wait_healthy
[ "$(podman exec "$name" stat -c '%u' /media)" = 65532 ] || fail "/media is not the image user's"

podman rm -f "$name" >/dev/null 2>>"$work/podman.log"

say "the systemd unit, with the image's binary, under systemd: the README's backup and restore through systemd-run"
systemd_image=localhost/zapdesk-systemd-check:bookworm
if ! podman image exists "$systemd_image"; then
  mkdir -p "$work/systemd"
  cat >"$work/systemd/Containerfile" <<CONTAINERFILE
FROM $debian
RUN apt-get update && apt-get install -y --no-install-recommends systemd systemd-sysv dbus curl \\
  && rm -rf /var/lib/apt/lists/*
CMD ["/sbin/init"]
CONTAINERFILE
  podman build --quiet --pull=never --network host -t "$systemd_image" "$work/systemd" >/dev/null
fi
podman create --name "$name" zapdesk:latest >/dev/null 2>>"$work/podman.log"
podman cp "$name:/usr/local/bin/zapdesk" "$work/zapdesk"
podman rm -f "$name" >/dev/null 2>>"$work/podman.log"
# Privileged: the unit's sandboxing sets up namespaces, which an unprivileged container may not.
podman run -d --name "$name-systemd" --privileged --systemd=always "$systemd_image" >/dev/null 2>>"$work/podman.log" ||
  fail "podman run of systemd: $(tail -1 "$work/podman.log")"
podman cp "$work/zapdesk" "$name-systemd:/usr/local/bin/zapdesk"
podman cp deploy/zapdesk.service "$name-systemd:/etc/systemd/system/zapdesk.service"
# Run from a file: systemd-run --pty passes its standard input on to the command.
cat >"$work/systemd-check.sh" <<'SYSTEMD'
set -euo pipefail
for _ in $(seq 100); do [ "$(systemctl is-system-running 2>/dev/null)" = running ] && break; sleep 0.2; done
printf 'ADMIN_EMAIL=admin@check.test\nADMIN_PASSWORD=check-admin-password\n' >/etc/zapdesk.env
chmod 755 /usr/local/bin/zapdesk
systemctl daemon-reload
systemctl enable --now zapdesk
health() { for _ in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:8080/health && return 0; sleep 0.2; done; return 1; }
login() { curl -sS -X POST http://127.0.0.1:8080/api/auth/login -H "content-type: application/json" --data "$1"; }
admin='{"email":"admin@check.test","password":"check-admin-password"}'
later='{"email":"later@check.test","password":"check-later-password"}'
health || { echo "the service does not answer /health"; exit 1; }
token=$(login "$admin" | grep -o '"token":"[^"]*"' | cut -d'"' -f4)
# As the README writes it:
systemd-run --pty --wait --collect -p DynamicUser=yes -p User=zapdesk -p StateDirectory=zapdesk -p UMask=0077 \
  -p Environment=DATA_DIR=/var/lib/zapdesk -p EnvironmentFile=-/etc/zapdesk.env \
  /usr/local/bin/zapdesk backup --out /var/lib/zapdesk/backups/manual-2026-11-23.tar --with-media
cp /var/lib/private/zapdesk/backups/manual-2026-11-23.tar /root/
curl -fsS -X POST http://127.0.0.1:8080/api/users -H "authorization: Bearer $token" -H "content-type: application/json" \
  --data '{"name":"Later","email":"later@check.test","password":"check-later-password"}' >/dev/null
systemctl stop zapdesk
install -m 0644 /root/manual-2026-11-23.tar /var/lib/private/zapdesk/restore.tar
systemd-run --pty --wait --collect -p DynamicUser=yes -p User=zapdesk -p StateDirectory=zapdesk -p UMask=0077 \
  -p Environment=DATA_DIR=/var/lib/zapdesk -p EnvironmentFile=-/etc/zapdesk.env \
  /usr/local/bin/zapdesk restore /var/lib/zapdesk/restore.tar --force
rm /var/lib/private/zapdesk/restore.tar
systemctl start zapdesk
health || { echo "the service does not answer /health after the restore"; exit 1; }
[ "$(find /var/lib/private/zapdesk ! -uid "$(stat -c %u /var/lib/private/zapdesk)" | wc -l)" = 0 ] ||
  { echo "files of another user in the state directory"; exit 1; }
login "$admin" | grep -q '"token"' || { echo "the admin of the backup cannot log in after the restore"; exit 1; }
if login "$later" | grep -q '"token"'; then echo "the user created after the backup is still there"; exit 1; fi
SYSTEMD
podman cp "$work/systemd-check.sh" "$name-systemd:/root/systemd-check.sh"
podman exec "$name-systemd" bash /root/systemd-check.sh >"$work/systemd.log" 2>&1 ||
  fail "systemd: $(tail -3 "$work/systemd.log")"
podman rm -f "$name-systemd" >/dev/null 2>>"$work/podman.log"

# The cluster compose needs postgres:15 and caddy:2: made from Debian's packages when missing, with what the
# compose file uses of the official images (POSTGRES_USER/PASSWORD/DB, pg_isready; caddy run on /etc/caddy).
if ! podman image exists docker.io/library/postgres:15; then
  say "making postgres:15 from Debian's postgresql-15"
  mkdir -p "$work/postgres"
  cat >"$work/postgres/entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
set -e
export PATH=/usr/lib/postgresql/15/bin:$PATH
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/password
  initdb -D "$PGDATA" -E UTF8 --locale=C.UTF-8 -U "$POSTGRES_USER" --pwfile=/tmp/password --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm /tmp/password
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
  [ "$POSTGRES_DB" = postgres ] || createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
  pg_ctl -D "$PGDATA" -w -m fast stop >/dev/null
fi
exec postgres -D "$PGDATA"
ENTRYPOINT
  cat >"$work/postgres/Containerfile" <<CONTAINERFILE
FROM $debian
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/* \\
  && mkdir -p /var/lib/postgresql/data && chown postgres:postgres /var/lib/postgresql/data
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data POSTGRES_USER=postgres POSTGRES_DB=postgres
USER postgres
ENTRYPOINT ["sh", "/usr/local/bin/entrypoint.sh"]
CONTAINERFILE
  podman build --quiet --pull=never --network host -t docker.io/library/postgres:15 "$work/postgres" >/dev/null
fi
if ! podman image exists docker.io/library/caddy:2; then
  say "making caddy:2 from Debian's caddy"
  mkdir -p "$work/caddy"
  cat >"$work/caddy/Containerfile" <<CONTAINERFILE
FROM $debian
RUN apt-get update && apt-get install -y --no-install-recommends caddy ca-certificates curl && rm -rf /var/lib/apt/lists/*
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
CONTAINERFILE
  podman build --quiet --pull=never --network host -t docker.io/library/caddy:2 "$work/caddy" >/dev/null
fi

say "the cluster compose: PostgreSQL, two nodes sharing a new media volume, Caddy"
cluster=(podman-compose -p "$name" -f deploy/docker-compose.cluster.yml)
export DOMAIN=localhost POSTGRES_PASSWORD=check-password ADMIN_EMAIL=admin@check.test ADMIN_PASSWORD=check-admin-password
cleanup_cluster() {
  "${cluster[@]}" down -v >/dev/null 2>&1 || true
  podman network rm -f "${name}_default" >/dev/null 2>&1 || true
}
trap 'cleanup_cluster; cleanup' EXIT
"${cluster[@]}" up -d >>"$work/compose.log" 2>&1 || fail "podman-compose up: $(tail -1 "$work/compose.log")"
restarts() {
  for node in node-a node-b; do
    podman inspect -f '{{.State.Running}} {{.RestartCount}}' "${name}_${node}_1" 2>/dev/null || echo gone
  done
}
# Caddy spreads requests over both nodes: both answer once they serve.
nodes_seen=""
for _ in $(seq 300); do
  node=$(curl -kfsS https://localhost/health 2>/dev/null | grep -o '"node":"[^"]*"' || true)
  [ -n "$node" ] && ! grep -qxF "$node" <<<"$nodes_seen" && nodes_seen+="$node"$'\n'
  [ "$(grep -c . <<<"$nodes_seen")" = 2 ] && break
  sleep 0.2
done
[ "$(grep -c . <<<"$nodes_seen")" = 2 ] ||
  fail "both nodes do not answer /health behind Caddy: $(podman logs "${name}_node-b_1" 2>&1 | tail -1)"
# podman-compose ignores depends_on conditions: a node started before PostgreSQL answers restarts until it does.
# Once they serve, a node that crashed at start (as on a root-owned /media) would go on restarting.
before=$(restarts)
sleep 5
[ "$(restarts)" = "$before" ] && ! grep -qv '^true ' <<<"$before" ||
  fail "a node stopped or restarted while serving: $(podman logs "${name}_node-b_1" 2>&1 | tail -1)"

say "the nodes share a login, and the other node takes a stopped node's connection over"
container() { echo "${name}_$1_1"; }
# A node straight, past Caddy (the host reaches the compose network).
node_url() { echo "http://$(podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container "$1")"):8080"; }
# api NODE METHOD PATH [TOKEN [BODY]]: the answer, nothing when the node does not answer (each check says what failed).
api() {
  curl -sS -X "$2" "$(node_url "$1")/api$3" ${4:+-H "authorization: Bearer $4"} \
    ${5:+-H "content-type: application/json" --data "$5"} || true
}
# The first value of the JSON field, or nothing.
field() { { grep -o "\"$1\":[^,}]*" || true; } | head -1 | sed 's/^[^:]*://; s/^"//; s/"$//'; }
node_id() { { curl -sS "$(node_url "$1")/health" || true; } | field node; }
lease_holder() {
  podman exec "$(container postgres)" psql -U zapdesk -d zapdesk -tAc \
    "SELECT node_id FROM connection_leases WHERE whatsapp_id = $1" 2>/dev/null
}
token=$(api node-a POST /auth/login "" "{\"email\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" | field token)
[ -n "$token" ] || fail "the admin cannot log in on node-a"
[ "$(api node-b GET /users "$token" | field users)" != "" ] || fail "node-a's token does not work on node-b"
connection=$(api node-a POST /whatsapp "$token" '{"name":"Check","provider":"sandbox"}' | field id)
[ -n "$connection" ] || fail "no sandbox connection created on node-a"
status=""
for _ in $(seq 150); do
  status=$(api node-b GET "/whatsapp/$connection" "$token" | field status)
  [ "$status" = CONNECTED ] && break
  # Scanned again while it is not CONNECTED, as a person would when a scan did not take.
  api node-b POST "/sandbox/$connection/scan" "$token" >/dev/null
  sleep 0.2
done
[ "$status" = CONNECTED ] || fail "the sandbox connection is not CONNECTED: $status"
holder=$(lease_holder "$connection")
case "$holder" in
"$(node_id node-a)") running=node-a other=node-b ;;
"$(node_id node-b)") running=node-b other=node-a ;;
*) fail "no node holds the connection's lease: '$holder'" ;;
esac
other_id=$(node_id "$other")
podman stop -t 30 "$(container "$running")" >/dev/null 2>>"$work/podman.log"
for _ in $(seq 150); do
  [ "$(lease_holder "$connection")" = "$other_id" ] &&
    [ "$(api "$other" GET "/whatsapp/$connection" "$token" | field status)" = CONNECTED ] && break
  sleep 0.2
done
[ "$(lease_holder "$connection")" = "$other_id" ] ||
  fail "$other did not take the connection over from $running: $(podman logs "$(container "$other")" 2>&1 | tail -1)"
api "$other" POST "/sandbox/$connection/inbound" "$token" '{"from":"5511933334444","body":"Depois da troca"}' >/dev/null
stored=""
for _ in $(seq 100); do
  stored=$(api "$other" GET "/tickets?showAll=true" "$token" | grep -o 'Depois da troca' || true)
  [ -n "$stored" ] && break
  sleep 0.2
done
[ -n "$stored" ] || fail "$other does not store the customer's message after taking the connection over"

say "PostgreSQL's backup and restore as the README writes them (the nodes stopped for the restore)"
# podman exec, not podman-compose exec: podman-compose writes its own lines to standard output.
podman exec "$(container postgres)" pg_dump -U zapdesk --format=custom zapdesk >"$work/zapdesk.dump" ||
  fail "pg_dump in the postgres container"
api "$other" POST "/sandbox/$connection/inbound" "$token" '{"from":"5511933334444","body":"Depois do backup"}' >/dev/null
for _ in $(seq 100); do
  api "$other" GET "/tickets?showAll=true" "$token" | grep -q 'Depois do backup' && break
  sleep 0.2
done
api "$other" GET "/tickets?showAll=true" "$token" | grep -q 'Depois do backup' || fail "the message after the backup is not stored"
podman exec "$(container "$other")" tar -cf - -C /media . >"$work/media.tar" || fail "tar of the media volume"
podman stop -t 30 "$(container "$other")" >/dev/null 2>>"$work/podman.log"
podman run --rm -i --network none --entrypoint tar -v "${name}_media:/media" zapdesk:latest -xf - -C /media \
  <"$work/media.tar" 2>>"$work/podman.log" || fail "media put back: $(tail -1 "$work/podman.log")"
podman exec -i "$(container postgres)" pg_restore -U zapdesk --clean --if-exists -d zapdesk <"$work/zapdesk.dump" ||
  fail "pg_restore in the postgres container"
podman start "$(container "$other")" >/dev/null 2>>"$work/podman.log"
tickets=""
for _ in $(seq 150); do
  tickets=$(api "$other" GET "/tickets?showAll=true" "$token" 2>/dev/null)
  grep -q '"tickets"' <<<"$tickets" && break
  sleep 0.2
done
grep -q 'Depois da troca' <<<"$tickets" || fail "the restored database lacks what the backup held: $tickets"
grep -q 'Depois do backup' <<<"$tickets" && fail "the restored database holds what came after the backup"

say "image checks passed ($(podman image inspect -f '{{.Size}}' zapdesk:latest | awk '{printf "%d MB", $1/1e6}'))"
