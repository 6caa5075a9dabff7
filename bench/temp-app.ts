import { closeDatabase, type Db, one } from "../src/db/client";
/**
 * A throwaway app for the benchmarks: a fresh database in a temp directory, served on a loopback port with the
 * real socket hub, an admin signed in, and one connected sandbox connection. `close()` stops it and removes the
 * directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import { composeDeps } from "../src/compose";
import { loadConfig } from "../src/config";
import { connections } from "../src/db/tables";
import { createLogger } from "../src/log";
import { ensureFirstAdmin } from "../src/modules/auth/service";
import { BunTopicHub } from "../src/realtime/hub";
import { systemClock } from "../src/shared/clock";
import { freshPgUrl, pgServer } from "../tests/pg-harness";

export const ADMIN = { email: "bench@example.com", password: "bench-password" };

export async function startTempApp<S = undefined>(
  opts: {
    /** Fills the database before it is served (its result is returned as `seeded`). */
    seed?: (db: Db) => S | Promise<S>;
    /** Adds a connected sandbox connection "Bench" (default true). */
    sandbox?: boolean;
    /** A PostgreSQL database to serve as it is (kept between runs) instead of a new one. */
    databaseUrl?: string;
    /** A data directory to serve as it is (kept between runs) instead of a new one. */
    dataDir?: string;
  } = {},
) {
  const dir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "zapdesk-bench-"));
  // With DATABASE_URL (bench/postgres.ts), each app gets a database of its own on the harness's cluster.
  const databaseUrl = opts.databaseUrl ?? (process.env.DATABASE_URL ? await freshPgUrl() : undefined);
  const config = loadConfig({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "silent",
    // The bench's one admin sends far more at once than a person may.
    API_USER_CONCURRENCY: "0",
    API_USER_RATE: "0",
  });
  const hub = new BunTopicHub();
  const composed = await composeDeps({
    config,
    hub,
    log: createLogger("silent"),
    clock: systemClock,
    singleNode: true,
  });
  const { deps, db, channels, sandbox } = composed;
  await ensureFirstAdmin(deps);
  const seeded = (await opts.seed?.(db)) as S;
  const app = (await createApp(deps)).listen({ port: 0, hostname: "127.0.0.1" });
  hub.attach(app.server!);
  const base = `http://127.0.0.1:${app.server!.port}`;
  const { token, cookie } = await signIn(base, ADMIN.email, ADMIN.password);
  let connectionId: number | undefined;
  if (opts.sandbox ?? true) {
    connectionId = (
      await one(db.insert(connections).values({ name: "Bench", provider: "sandbox", isDefault: true }).returning())
    ).id;
    await channels.start(connectionId);
    await sandbox.scan(connectionId);
  }
  return {
    ...composed,
    dir,
    app,
    base,
    token,
    cookie,
    seeded,
    /** The data directory of the PostgreSQL cluster holding the database, when it is the harness's (bench/pg-cpu.ts). */
    postgresDataDir: databaseUrl && !opts.databaseUrl ? join(pgServer().socketDir, "data") : undefined,
    /** The sandbox connection (0 when asked for none). */
    connectionId: connectionId ?? 0,
    async close() {
      await app.stop(true);
      await channels.stopAll();
      sandbox.network.cancelAll();
      await closeDatabase(db);
      if (!opts.dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TempApp = Awaited<ReturnType<typeof startTempApp>>;

/** Signs in and returns the access token. */
export async function login(base: string, email: string, password: string): Promise<string> {
  return (await signIn(base, email, password)).token;
}

/** Signs in and returns the access token and the session cookie pages use. */
async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: HTTP ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  return { token, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0]! };
}

/** Runs `total` jobs with `concurrency` of them in flight; returns the seconds it took. */
export async function runConcurrently(total: number, concurrency: number, job: (i: number) => Promise<void>) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await job(next++);
    }),
  );
  return (performance.now() - start) / 1000;
}
