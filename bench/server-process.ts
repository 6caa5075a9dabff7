/**
 * The server as its own process (the compiled binary or `bun src/server.ts`) on a given DATA_DIR and a free
 * loopback port, for the measures that are about the process itself: its memory and how long it takes to start.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");
export const BINARY = join(ROOT, "dist", "zapdesk");
export const ADMIN = { email: "bench@example.com", password: "bench-password" };

export interface ServerProcess {
  proc: Bun.Subprocess;
  base: string;
  /** Milliseconds from spawn to the first `/health` 200. */
  readyMs: number;
  /** Resident memory of the process now, in MiB (VmRSS). */
  rssMiB(): number;
  stop(): Promise<void>;
}

/** The command that runs the server: the binary, or what `npm start` runs (the server bundle, see build:server). */
export function serverCommand(kind: "binary" | "source"): string[] {
  return kind === "binary" ? [BINARY] : [process.execPath, join(ROOT, "dist", "server", "server.js")];
}

let nextPort = 19_400 + Math.floor(Math.random() * 500);

/** Spawns the server and resolves once `/health` answers 200 (polled every millisecond). */
export async function startServer(
  command: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = nextPort++;
  const started = performance.now();
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? dataDir,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The bench's one admin sends far more at once than a person may.
      API_USER_CONCURRENCY: "0",
      API_USER_RATE: "0",
      ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = started + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode} before answering /health`);
    if (performance.now() > deadline) {
      proc.kill();
      throw new Error("server did not answer /health within 30 s");
    }
    const ok = await fetch(`${base}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await Bun.sleep(1);
  }
  const readyMs = performance.now() - started;
  return {
    proc,
    base,
    readyMs,
    rssMiB: () => rssMiB(proc.pid),
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** VmRSS of process `pid` in MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Logs in as the bench admin and returns the bearer header. */
export async function login(base: string): Promise<{ authorization: string }> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`login: HTTP ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
