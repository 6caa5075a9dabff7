import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listeningOn } from "../src/http/public-origin";

const ROOT = join(import.meta.dir, "..");
/** An unprivileged user (nobody) the server is started as when the tests run as root. */
const SERVER_UID = 65534;
const asRoot = process.getuid?.() === 0 && Bun.which("setpriv");

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A folder root owns (mode 0755) inside one everybody may enter. */
function rootsFolder(): string {
  const parent = mkdtempSync(join(tmpdir(), "zapdesk-start-"));
  dirs.push(parent);
  chmodSync(parent, 0o755);
  const dir = join(parent, "owned-by-root");
  mkdirSync(dir, { mode: 0o755 });
  return dir;
}

/** Starts the server as the unprivileged user, with `env`, and returns its exit code and what it printed. */
async function startAsServerUser(env: Record<string, string>) {
  const proc = Bun.spawn(
    ["setpriv", `--reuid=${SERVER_UID}`, `--regid=${SERVER_UID}`, "--clear-groups", process.execPath, "src/server.ts"],
    { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: tmpdir(), PORT: "0", ...env }, stdout: "pipe", stderr: "pipe" },
  );
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, output: (out + err).trim() };
}

describe.skipIf(!asRoot)("starting on a data directory the server cannot write", () => {
  test("a DATA_DIR owned by another user ends the start with one line naming it, its owner and the server's uid", async () => {
    const dataDir = rootsFolder();
    const { code, output } = await startAsServerUser({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(output.split("\n")).toHaveLength(1);
    expect(output).toContain(`DATA_DIR ${dataDir}`);
    expect(output).toContain("belongs to root (uid 0");
    expect(output).toContain(`runs as uid ${SERVER_UID}`);
  });

  test("a MEDIA_DIR a new volume left to root does the same, naming MEDIA_DIR", async () => {
    const dataDir = rootsFolder();
    chownSync(dataDir, SERVER_UID, SERVER_UID);
    const mediaDir = rootsFolder();
    const { code, output } = await startAsServerUser({ DATA_DIR: dataDir, MEDIA_DIR: mediaDir });
    expect(code).toBe(1);
    expect(output.split("\n")).toHaveLength(1);
    expect(output).toContain(`MEDIA_DIR ${mediaDir}`);
    expect(output).toContain(`runs as uid ${SERVER_UID}`);
  });

  test("a DATA_DIR it cannot create names the folder that stops it", async () => {
    const parent = rootsFolder();
    const { code, output } = await startAsServerUser({ DATA_DIR: join(parent, "data") });
    expect(code).toBe(1);
    expect(output.split("\n")).toHaveLength(1);
    expect(output).toContain(`cannot create DATA_DIR ${join(parent, "data")}: ${parent} belongs to root`);
  });
});

describe("a start that fails", () => {
  test("ends with exit code 1, so that a supervisor restarts it: here, a PostgreSQL server that does not answer, said in one line naming its address and not the password", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-start-"));
    dirs.push(dataDir);
    const proc = Bun.spawn([process.execPath, "src/server.ts"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH!,
        DATA_DIR: dataDir,
        PORT: "0",
        DATABASE_URL: "postgres://zap:hunter2@127.0.0.1:1/zapdesk",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    const output = (out + err).trim();
    expect(code).toBe(1);
    expect(output.split("\n")).toHaveLength(1);
    expect(output).toStartWith("zapdesk: cannot reach PostgreSQL at 127.0.0.1:1 (DATABASE_URL)");
    expect(output).not.toContain("hunter2");
  });
});

describe("the start log", () => {
  test("names the address the server bound, and PUBLIC_URL when set, never a localhost it did not bind", () => {
    expect(listeningOn("127.0.0.1", 8080)).toBe("http://127.0.0.1:8080");
    expect(listeningOn("::1", 8080)).toBe("http://[::1]:8080");
    expect(listeningOn("0.0.0.0", 8080)).toBe("port 8080 on every address of this machine");
    expect(listeningOn("0.0.0.0", 8080, "https://inbox.example.com")).toBe(
      "port 8080 on every address of this machine, reached at https://inbox.example.com",
    );
  });
});
