import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { version } from "../../package.json";
import { hasPostgres, startPostgres } from "../sql-servers";

/**
 * The release as a user gets it: the compiled binary, run as an unprivileged user (uid 65532, as in the Docker
 * image) on a data directory that user owns; it serves, backs up while running, stops on SIGTERM and restores.
 */
const ROOT = join(import.meta.dir, "..", "..");
const UID = 65532;
const asRoot = process.getuid?.() === 0;
let work: string;
let binary: string;

beforeAll(() => {
  // `npm test` compiles the binary before its test runs and names it here (ZAPDESK_BINARY); alone, this file compiles it.
  const compiled = process.env.ZAPDESK_BINARY;
  if (!compiled) {
    const build = Bun.spawnSync([process.execPath, "run", "compile"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`compile failed: ${build.stderr.toString()}`);
  }
  work = mkdtempSync(join(tmpdir(), "zapdesk-binary-"));
  chmodSync(work, 0o755);
  binary = join(work, "zapdesk");
  copyFileSync(compiled ?? join(ROOT, "dist", "zapdesk"), binary);
  chmodSync(binary, 0o755);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A data directory owned by the unprivileged user. */
function dataDir(name: string) {
  const dir = join(work, name);
  Bun.spawnSync(["mkdir", "-m", "700", dir]);
  if (asRoot) chownSync(dir, UID, UID);
  return dir;
}

/** Runs the binary as the unprivileged user (when the tests run as root) with the given environment. */
function run(args: string[], env: Record<string, string>) {
  const cmd = asRoot
    ? ["setpriv", `--reuid=${UID}`, `--regid=${UID}`, "--clear-groups", binary, ...args]
    : [binary, ...args];
  return Bun.spawn(cmd, {
    cwd: work,
    env: { PATH: process.env.PATH ?? "", HOME: work, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function lines(stream: ReadableStream<Uint8Array>, until: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { value, done } = await Promise.race([
      reader.read(),
      Bun.sleep(deadline - Date.now()).then(() => ({ value: undefined, done: true })),
    ]);
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const match = text.match(until);
    if (match) {
      reader.releaseLock();
      return match;
    }
  }
  throw new Error(`no line matching ${until} in: ${text}`);
}

describe("the compiled binary", () => {
  test("prints its version", async () => {
    const proc = run(["--version"], {});
    expect(await proc.exited).toBe(0);
    expect((await new Response(proc.stdout).text()).trim()).toBe(version);
  });

  test("fits the README's 120 MiB: it embeds only what it reads at run time (no schema snapshots of the migrations)", () => {
    expect(statSync(binary).size).toBeLessThanOrEqual(120 * 1024 * 1024);
  });

  test("as an unprivileged user: serves /health and /login, backs up while running, stops on SIGTERM, restores elsewhere", async () => {
    const data = dataDir("data");
    const env = {
      DATA_DIR: data,
      PORT: "0",
      HOST: "127.0.0.1",
      ADMIN_EMAIL: "boss@example.com",
      ADMIN_PASSWORD: "binary-secret",
    };
    const server = run([], env);
    const [, port] = await lines(server.stdout, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/login`)).status).toBe(200);
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "boss@example.com", password: "binary-secret" }),
    });
    expect(login.status).toBe(200);

    const copy = join(data, "copy.tar");
    const backup = run(["backup", "--out", copy, "--with-media"], env);
    expect(await backup.exited).toBe(0);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    if (asRoot) expect(statSync(copy).uid).toBe(UID);
    expect(statSync(join(data, "zapdesk.sqlite")).mode & 0o777).toBe(0o600);
    expect(await run(["healthcheck"], { PORT: port! }).exited).toBe(0);

    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    const other = dataDir("restored");
    const restore = run(["restore", copy], { DATA_DIR: other });
    expect(await restore.exited).toBe(0);
    expect(existsSync(join(other, "zapdesk.sqlite"))).toBe(true);
    const again = run([], { ...env, DATA_DIR: other });
    const [, port2] = await lines(again.stdout, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const relogin = await fetch(`http://127.0.0.1:${port2}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "boss@example.com", password: "binary-secret" }),
    });
    expect(relogin.status).toBe(200);
    again.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 60_000);

  test("refuses, in one line naming the version to run, a database a newer Zapdesk migrated", async () => {
    const env = { DATA_DIR: dataDir("newer"), PORT: "0", HOST: "127.0.0.1", ADMIN_PASSWORD: "binary-secret" };
    const server = run([], env);
    await lines(server.stdout, /listening on/);
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const db = new Database(join(env.DATA_DIR, "zapdesk.sqlite"));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)");
    db.run("INSERT INTO app_versions (version, schema) VALUES ('9.1.0', '0099_future')");
    db.close();
    if (asRoot) for (const name of readdirSync(env.DATA_DIR)) chownSync(join(env.DATA_DIR, name), UID, UID);

    const refused = run([], env);
    const output = (await new Response(refused.stdout).text()) + (await new Response(refused.stderr).text());
    expect(await refused.exited).toBe(1);
    expect(output.trim().split("\n")).toHaveLength(1);
    expect(output).toContain("run Zapdesk 9.1.0 or newer");
  }, 60_000);

  test.skipIf(!hasPostgres)(
    "copies its database into PostgreSQL with the PostgreSQL migrations it carries",
    async () => {
      const env = { DATA_DIR: dataDir("to-postgres"), PORT: "0", HOST: "127.0.0.1", ADMIN_EMAIL: "boss@example.com" };
      const server = run([], { ...env, ADMIN_PASSWORD: "binary-secret" });
      const [, port] = await lines(server.stdout, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      server.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      const postgres = startPostgres();
      try {
        const migrate = run(["migrate-to-postgres", "--to", postgres.url], env);
        const out = await new Response(migrate.stdout).text();
        expect(await migrate.exited).toBe(0);
        expect(out).toMatch(/^users +1 in SQLite +1 in PostgreSQL$/m);
        const sql = new SQL(postgres.url);
        const [admin] = await sql`SELECT email FROM users`;
        await sql.close();
        expect(admin.email).toBe("boss@example.com");
      } finally {
        postgres.stop();
      }
    },
    60_000,
  );
});
