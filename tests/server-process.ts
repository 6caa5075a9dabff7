import type { Subprocess } from "bun";
import { join } from "node:path";
import { freePort } from "./free-port";
import { waitFor } from "./wait-for";

/** A Zapdesk server run as it is deployed (`bun src/server.ts`), in a process of its own. */
export interface ServerProcess {
  base: string;
  proc: Subprocess;
}

const root = join(import.meta.dir, "..");

/**
 * Starts `bun src/server.ts` on a free loopback port with this process's environment and `env` over it (DATA_DIR
 * and the first admin at least), and resolves once `/health` answers; stderr is passed through.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = freePort();
  const proc = Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () =>
        proc.exitCode === null &&
        (await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        )),
    );
  } catch (error) {
    proc.kill("SIGKILL");
    throw new Error(`the server on ${port} did not start: ${error}`);
  }
  return { base, proc };
}
