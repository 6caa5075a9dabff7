// @engine once
import { closeDatabase, openDatabase, sqliteClient } from "../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import {
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { version } from "../package.json";
import { runCommand } from "../src/cli";
import { messages } from "../src/db/tables";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { backup, restore } from "../src/ops/backup";
import { extractTar, isTar, TarWriter } from "../src/ops/tar";
import { call, createSandboxConnection, createUser, makeTestApp, type TestContext } from "./helpers";
import { freshPgUrl } from "./pg-harness";
import { hasPostgres } from "./sql-servers";

const ROOT = join(import.meta.dir, "..");
let dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-backup-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** An app on a file database under a fresh DATA_DIR. */
async function fileApp() {
  const dataDir = tempDir();
  mkdirSync(join(dataDir, "media"));
  const ctx = await makeTestApp({
    dataDir,
    databasePath: join(dataDir, "zapdesk.sqlite"),
    mediaDir: join(dataDir, "media"),
  });
  return { ctx, dataDir };
}

const messageCount = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("backup and restore", () => {
  test("a backup taken by another process while messages arrive opens, passes the integrity check and holds every message stored before it began", async () => {
    const { ctx, dataDir } = await fileApp();
    const conn = await createSandboxConnection(ctx);
    let sent = 0;
    let running = true;
    let reached200 = () => {};
    const twoHundredSent = new Promise<void>((resolve) => (reached200 = resolve));
    const ingest = (async () => {
      while (running) {
        await ctx.sandbox.inbound(conn.id, {
          from: `55119${String(sent++ % 50).padStart(8, "0")}`,
          body: `mensagem ${sent}`,
        });
        if (sent === 200) reached200();
        // Storing is synchronous: let timers and the child process's exit be heard between messages.
        await Bun.sleep(0);
      }
    })();
    await twoHundredSent;
    const storedBefore = (await ctx.db.select().from(messages)).length;
    const out = join(tempDir(), "copy.sqlite");
    const proc = Bun.spawn([process.execPath, "src/server.ts", "backup", "--out", out], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited, await new Response(proc.stderr).text()).toBe(0);
    running = false;
    await ingest;
    const copy = new Database(out, { readonly: true });
    expect((copy.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    copy.close();
    expect(messageCount(out)).toBeGreaterThanOrEqual(storedBefore);
    expect(sent).toBeGreaterThan(storedBefore);
  }, 20_000);

  test("a backup with media is a tar of the database and every media file", async () => {
    const { ctx, dataDir } = await fileApp();
    writeFileSync(join(ctx.deps.config.mediaDir, "a.jpg"), "picture");
    const out = join(tempDir(), "full.tar");
    await backup(ctx.deps.config, out, { withMedia: true });
    expect(isTar(out)).toBe(true);
    const into = tempDir();
    expect(extractTar(out, into).sort()).toEqual(["media/a.jpg", "zapdesk.sqlite"]);
    expect(readFileSync(join(into, "media", "a.jpg"), "utf8")).toBe("picture");
    expect(existsSync(join(dataDir, "zapdesk.sqlite"))).toBe(true);
  });

  test("a restore into a new directory brings back logins, messages and media", async () => {
    const { ctx } = await fileApp();
    const user = await createUser(ctx, { email: "ana@example.com", password: "senha-forte" });
    const conn = await createSandboxConnection(ctx);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "guardar isto" });
    writeFileSync(join(ctx.deps.config.mediaDir, "doc.pdf"), "%PDF");
    const out = join(tempDir(), "full.tar");
    await backup(ctx.deps.config, out, { withMedia: true });

    const fresh = tempDir();
    const target = { dataDir: fresh, databasePath: join(fresh, "zapdesk.sqlite"), mediaDir: join(fresh, "media") };
    restore(target, out);
    const restored = await makeTestApp(target);
    const login = await call(restored.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: "senha-forte" },
    });
    expect(login.status).toBe(200);
    expect((await restored.db.select().from(messages)).map((m) => m.body)).toContain("guardar isto");
    expect(readFileSync(join(fresh, "media", "doc.pdf"), "utf8")).toBe("%PDF");
  });

  test("a restore refuses a database that already has users, unless forced", async () => {
    const { ctx } = await fileApp();
    await createUser(ctx);
    const copy = join(tempDir(), "copy.sqlite");
    await backup(ctx.deps.config, copy);
    const other = await fileApp();
    await createUser(other.ctx, { email: "kept@example.com" });
    await closeDatabase(other.ctx.db);
    const target = other.ctx.deps.config;
    expect(() => restore(target, copy)).toThrow(/not empty/);
    const io = { lines: [] as string[], out: (l: string) => io.lines.push(l), err: (l: string) => io.lines.push(l) };
    expect(await runCommand(["restore", copy], { DATA_DIR: target.dataDir }, io)).toBe(1);
    expect(await runCommand(["restore", copy, "--force"], { DATA_DIR: target.dataDir }, io)).toBe(0);
    const db = new Database(target.databasePath, { readonly: true });
    expect(db.query("SELECT email FROM users WHERE email = 'kept@example.com'").get()).toBeNull();
    db.close();
  });

  test("a file that is not a Zapdesk database is refused and nothing is replaced", async () => {
    const { ctx } = await fileApp();
    const junk = join(tempDir(), "junk.sqlite");
    writeFileSync(junk, "not a database at all");
    expect(() => restore(ctx.deps.config, junk, { force: true })).toThrow();
    expect(existsSync(ctx.deps.config.databasePath)).toBe(true);
  });

  test("a rejected archive leaves nothing behind, and the error names the archive", async () => {
    const work = tempDir();
    writeFileSync(join(work, "zapdesk.sqlite"), "not a database at all");
    writeFileSync(join(work, "photo.jpg"), "JPEG");
    const archive = join(work, "broken.tar");
    const tar = new TarWriter(archive);
    await tar.addFile("zapdesk.sqlite", join(work, "zapdesk.sqlite"));
    await tar.addFile("media/photo.jpg", join(work, "photo.jpg"));
    tar.close();

    const { ctx, dataDir } = await fileApp();
    await closeDatabase(ctx.db);
    const before = readdirSync(dataDir, { recursive: true }).sort();
    expect(() => restore(ctx.deps.config, archive, { force: true })).toThrow(`cannot restore ${archive}: `);
    expect(readdirSync(dataDir, { recursive: true }).sort()).toEqual(before);

    const fresh = join(tempDir(), "new");
    const target = { dataDir: fresh, databasePath: join(fresh, "zapdesk.sqlite"), mediaDir: join(fresh, "media") };
    expect(() => restore(target, archive)).toThrow(/^cannot restore .*broken\.tar: /);
    expect(existsSync(fresh)).toBe(false);
  });

  test("a backup a newer Zapdesk made is refused, naming the version to run, and nothing is replaced", async () => {
    const { ctx } = await fileApp();
    await createUser(ctx);
    const copy = join(tempDir(), "newer.sqlite");
    await backup(ctx.deps.config, copy);
    const newer = new Database(copy);
    newer.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)");
    newer.run("INSERT INTO app_versions (version, schema) VALUES ('9.1.0', '0099_future')");
    newer.close();

    const fresh = join(tempDir(), "new");
    const target = { dataDir: fresh, databasePath: join(fresh, "zapdesk.sqlite"), mediaDir: join(fresh, "media") };
    expect(() => restore(target, copy)).toThrow(`cannot restore ${copy}: the database was migrated by Zapdesk 9.1.0`);
    expect(existsSync(fresh)).toBe(false);
  });

  test.skipIf(process.getuid?.() !== 0)(
    "a restore run as another user than DATA_DIR's owner (root) is refused: the server could not open what it wrote",
    async () => {
      const { ctx } = await fileApp();
      const copy = join(tempDir(), "copy.sqlite");
      await backup(ctx.deps.config, copy);
      const dataDir = join(tempDir(), "server-owned");
      mkdirSync(dataDir);
      chownSync(dataDir, 65534, 65534);
      const target = { dataDir, databasePath: join(dataDir, "zapdesk.sqlite"), mediaDir: join(dataDir, "media") };
      expect(() => restore(target, copy)).toThrow(`DATA_DIR ${dataDir} is another user's: `);
      expect(readdirSync(dataDir)).toEqual([]);
    },
  );

  test("starting on a database with a pending migration first copies it to DATA_DIR/backups", async () => {
    const dataDir = tempDir();
    const older = tempDir();
    cpSync(join(ROOT, "db", "migrations"), older, { recursive: true });
    const journalPath = join(older, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
    const last = journal.entries.pop()!;
    writeFileSync(journalPath, JSON.stringify(journal));
    const databasePath = join(dataDir, "zapdesk.sqlite");
    const db = openDatabase(databasePath);
    migrate(drizzle(sqliteClient(db)), { migrationsFolder: older });
    await closeDatabase(db);

    const ctx: TestContext = await makeTestApp({ dataDir, databasePath, mediaDir: join(dataDir, "media") });
    const backups = readdirSync(join(dataDir, "backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toStartWith("pre-migration-");
    const copy = new Database(join(dataDir, "backups", backups[0]!), { readonly: true });
    const applied = (copy.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
    copy.close();
    expect(applied).toBe(journal.entries.length);
    expect(sqliteClient(ctx.db).query("SELECT count(*) AS n FROM __drizzle_migrations").get()).toEqual({
      n: journal.entries.length + 1,
    });
    expect(last.tag).toBeString();

    // Starting again with nothing pending makes no new copy.
    await makeTestApp({ dataDir, databasePath, mediaDir: join(dataDir, "media") });
    expect(readdirSync(join(dataDir, "backups"))).toHaveLength(1);
  });
});

/** What a command prints, line by line. */
const io = () => {
  const lines: string[] = [];
  return { lines, out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
};

describe("command line", () => {
  test("--version prints the package version, --help the commands, and no command means serve", async () => {
    const v = io();
    expect(await runCommand(["--version"], {}, v)).toBe(0);
    expect(v.lines).toEqual([version]);
    const h = io();
    expect(await runCommand(["--help"], {}, h)).toBe(0);
    expect(h.lines.join("\n")).toContain("zapdesk backup --out FILE");
    expect(await runCommand([], {}, io())).toBeNull();
    expect(await runCommand(["serve"], {}, io())).toBeNull();
  });

  test("an unknown command or a missing argument exits 2 with the help", async () => {
    const u = io();
    expect(await runCommand(["frobnicate"], {}, u)).toBe(2);
    expect(u.lines.join("\n")).toContain('unknown command "frobnicate"');
    expect(await runCommand(["backup"], {}, io())).toBe(2);
    expect(await runCommand(["restore"], {}, io())).toBe(2);
  });

  test("a command that fails or only reads creates no DATA_DIR, media folder or secrets", async () => {
    const dataDir = join(tempDir(), "data");
    const env = { DATA_DIR: dataDir };
    expect(await runCommand(["--version"], env, io())).toBe(0);
    expect(await runCommand(["--help"], env, io())).toBe(0);
    expect(await runCommand(["backup", "--with-media"], env, io())).toBe(2);
    const failed = io();
    expect(await runCommand(["backup", "--out", join(tempDir(), "b.sqlite")], env, failed)).toBe(1);
    expect(failed.lines.join("\n")).toContain(`no database at ${join(dataDir, "zapdesk.sqlite")}`);
    expect(await runCommand(["restore", join(tempDir(), "missing.tar")], env, io())).toBe(1);
    expect(existsSync(dataDir)).toBe(false);
  });

  test("a backup reads the data without writing to it: no secrets or media folder appear", async () => {
    const { ctx, dataDir } = await fileApp();
    await createUser(ctx);
    rmSync(join(dataDir, "media"), { recursive: true });
    const before = readdirSync(dataDir).sort();
    const out = join(tempDir(), "b.sqlite");
    expect(await runCommand(["backup", "--out", out], { DATA_DIR: dataDir }, io())).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect(before).not.toContain("secrets.json");
  });

  test("healthcheck exits 0 when /health answers on PORT and 1 when nothing listens", async () => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) =>
        new URL(req.url).pathname === "/health" ? Response.json({ status: "ok" }) : new Response("", { status: 404 }),
    });
    expect(await runCommand(["healthcheck"], { PORT: String(server.port) }, io())).toBe(0);
    server.stop(true);
    expect(await runCommand(["healthcheck"], { PORT: String(server.port) }, io())).toBe(1);
  });
});

describe.skipIf(!hasPostgres)("zapdesk backup on a node that stores in PostgreSQL", () => {
  // The first test starts the throwaway PostgreSQL cluster, which takes a few seconds.
  test("runs pg_dump into FILE when it is installed, and says to copy the media beside it", async () => {
    const url = `${await freshPgUrl()}?max=2`;
    const dataDir = join(tempDir(), "data");
    const out = join(tempDir(), "zapdesk.dump");
    const said = io();
    const env = { DATABASE_URL: url, DATA_DIR: dataDir, PATH: process.env.PATH };
    expect(await runCommand(["backup", "--out", out], env, said)).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe("PGDMP");
    expect(said.lines.join("\n")).toContain("pg_restore");
    expect(said.lines.join("\n")).toContain(`MEDIA_DIR (${join(dataDir, "media")})`);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  test("without pg_dump, exits 1 with the pg_dump command to run, its password left out", async () => {
    const out = join(tempDir(), "zapdesk.dump");
    const said = io();
    const env = { DATABASE_URL: "postgres://zapdesk:s3cret@db.example.com:5432/zapdesk?max=4", PATH: "" };
    expect(await runCommand(["backup", "--out", out], env, said)).toBe(1);
    const text = said.lines.join("\n");
    expect(text).toContain(`pg_dump --format=custom --file=${out} 'postgres://zapdesk:…@db.example.com:5432/zapdesk'`);
    expect(text).not.toContain("s3cret");
    expect(existsSync(out)).toBe(false);
  });
});
