import { SQL } from "bun";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port";

/** Whether this machine has PostgreSQL's server binaries (initdb, pg_ctl) on PATH. */
export const hasPostgres = Boolean(Bun.which("initdb") && Bun.which("pg_ctl"));

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function asServerUser(cmd: string[]): string[] {
  return process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
}

function run(cmd: string[]) {
  const done = Bun.spawnSync(asServerUser(cmd), { stderr: "pipe", stdout: "pipe" });
  if (done.exitCode !== 0) throw new Error(`${cmd[0]} failed: ${done.stderr.toString()}${done.stdout.toString()}`);
}

/**
 * A throwaway PostgreSQL cluster on a loopback port (no fsync: test data), and how to stop and remove it. It
 * also listens on a unix socket in `socketDir` (`.s.PGSQL.<port>`).
 */
export function startPostgres() {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-pg-"));
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(Bun.spawnSync(["id", flag, "postgres"]).stdout.toString());
    chownSync(dir, id("-u"), id("-g"));
  }
  const data = join(dir, "data");
  const port = freePort();
  run(["initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  run([
    "pg_ctl",
    "-D",
    data,
    "-w",
    "-l",
    join(dir, "log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    "start",
  ]);
  const stop = ["pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"];
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    socketDir: dir,
    /** What `stop()` runs, for a process that cleans up after this one: the command, then the folder to remove. */
    cleanup: { command: asServerUser(stop), dir },
    stop() {
      try {
        run(stop);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const sbin = { PATH: `${process.env.PATH}:/usr/sbin` };

/** Whether this machine has MariaDB's server (mariadbd, mariadb-install-db). */
export const hasMariadb = Boolean(Bun.which("mariadb-install-db") && Bun.which("mariadbd", sbin));

/**
 * A throwaway MariaDB server on a loopback port with an empty database `whaticket`, open to root without a
 * password (no grant tables: test data). It takes a moment to accept connections, so the first query is retried.
 */
export async function startMariadb() {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-mariadb-"));
  const data = join(dir, "data");
  const init = Bun.spawnSync(
    [
      "mariadb-install-db",
      `--datadir=${data}`,
      "--user=root",
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (init.exitCode !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr.toString()}`);
  const port = freePort();
  const server = Bun.spawn(
    [
      Bun.which("mariadbd", sbin)!,
      "--no-defaults",
      `--datadir=${data}`,
      `--socket=${join(dir, "sock")}`,
      `--port=${port}`,
      "--bind-address=127.0.0.1",
      "--user=root",
      "--skip-grant-tables",
      "--innodb-flush-log-at-trx-commit=0",
      `--pid-file=${join(dir, "pid")}`,
      `--log-error=${join(dir, "log")}`,
    ],
    { stdout: "ignore", stderr: "ignore" },
  );
  const admin = new SQL(`mysql://root@127.0.0.1:${port}/mysql`);
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe("CREATE DATABASE whaticket CHARACTER SET utf8mb4");
      break;
    } catch (error) {
      if (attempt >= 100) throw error;
      await Bun.sleep(100);
    }
  }
  await admin.close();
  return {
    url: `mysql://root@127.0.0.1:${port}/whaticket`,
    async stop() {
      server.kill();
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
