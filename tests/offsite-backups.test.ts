// @engine once
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { Config } from "../src/config";
import { JobRunner } from "../src/jobs/runner";
import { claimDue, jobsOfKind } from "../src/jobs/store";
import { sqliteClient } from "../src/db/client";
import { createLogger } from "../src/log";
import { runCommand } from "../src/cli";
import { scheduleBackups } from "../src/ops/backup-job";
import { parseS3Location } from "../src/shared/s3-location";
import { call, loginAs, makeTestApp } from "./helpers";
import { LOCAL_S3_KEYS, LocalS3 } from "./local-s3";

const DAY = 24 * 3600_000;
const SECRET = "s3cr3t-never-shown";

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  const steps = cleanup.reverse();
  cleanup = [];
  for (const step of steps) await step();
});

async function localS3() {
  const s3 = await new LocalS3().start();
  cleanup.push(() => s3.remove());
  return s3;
}

/** An app on a SQLite file with scheduled backups every day, uploaded to `backupS3`; its log lines are kept. */
async function backupApp(overrides: Partial<Config>) {
  const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-offsite-"));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  mkdirSync(join(dataDir, "media"));
  const ctx = await makeTestApp({
    dataDir,
    databasePath: join(dataDir, "zapdesk.sqlite"),
    mediaDir: join(dataDir, "media"),
    backupEveryHours: 24,
    ...overrides,
  });
  const logged: string[] = [];
  /** Starts (or, called again, restarts) the job runner of the app as server.ts does. */
  const start = async (config: Config = ctx.deps.config) => {
    const log = createLogger("debug", (line) => logged.push(line));
    const runner = new JobRunner({ db: ctx.db, clock: ctx.clock, log });
    await scheduleBackups(runner, config, log, () => ctx.clock.now(), ctx.deps.metrics);
    return runner;
  };
  const admin = await loginAs(ctx, { profile: "admin" });
  const offsite = async () => (await call(ctx.app, "GET", "/api/backups/offsite", { token: admin.token })).json;
  const metrics = async () => {
    const text = await (await ctx.app.handle(new Request("http://localhost/metrics"))).text();
    const families = parsePrometheusTextFormat(text) as {
      name: string;
      metrics: { value: string; labels?: object }[];
    }[];
    return { text, of: (name: string) => families.find((f) => f.name === name)?.metrics };
  };
  return { ctx, start, logged, offsite, metrics, dir: join(dataDir, "backups") };
}

describe("off-site backups", () => {
  test("each scheduled backup is uploaded after it is written, and the folder keeps only the newest BACKUP_KEEP scheduled ones", async () => {
    const s3 = await localS3();
    const client = s3.client();
    await client.write("zapdesk/manual-copy.sqlite", "kept: not a scheduled backup");
    await client.write("other/zapdesk-2020-01-01T00-00-00-000Z.sqlite", "kept: another folder");
    const { ctx, start, dir, offsite } = await backupApp({ backupKeep: 3, backupS3: s3.location("zapdesk/") });
    const runner = await start();
    for (let day = 0; day < 5; day++) {
      ctx.clock.advance(DAY);
      await runner.tick(); // writes the backup and queues its upload
      await runner.tick(); // uploads it
    }
    const local = readdirSync(dir).sort();
    expect(local).toHaveLength(3);
    expect(await s3.keys("zapdesk/")).toEqual(["zapdesk/manual-copy.sqlite", ...local.map((n) => `zapdesk/${n}`)]);
    expect(await s3.keys("other/")).toHaveLength(1);
    const newest = local.at(-1)!;
    expect(Buffer.from(await client.file(`zapdesk/${newest}`).arrayBuffer())).toEqual(readFileSync(join(dir, newest)));
    expect(await offsite()).toEqual({
      target: `${s3.endpoint}/backups/zapdesk/`,
      keep: 3,
      lastUpload: { name: newest, at: new Date(ctx.clock.now()).toISOString() },
      queued: 0,
      failures: [],
    });
  });

  test("an upload that fails (the store is down) is tried again with backoff, shown on the card and in /metrics, and goes up once the store is back", async () => {
    const s3 = await localS3();
    await s3.stop();
    const { ctx, start, offsite, metrics, logged } = await backupApp({
      backupS3: s3.location("zapdesk/", { accessKeyId: "S3RVER", secretAccessKey: SECRET }),
    });
    const runner = await start();
    ctx.clock.advance(DAY);
    await runner.tick();
    await runner.tick();
    const failedAt = ctx.clock.now();
    const status = await offsite();
    expect(status.lastUpload).toBeNull();
    expect(status.failures).toEqual([
      {
        name: expect.stringMatching(/^zapdesk-.*\.sqlite$/),
        state: "retrying",
        attempts: 1,
        error: expect.stringContaining("ConnectionRefused"),
        at: new Date(failedAt).toISOString(),
        nextAttemptAt: new Date(failedAt + 30_000).toISOString(),
      },
    ]);
    expect(status.failures[0].error).toContain(`upload ${status.failures[0].name} at ${s3.endpoint}/backups/zapdesk/`);
    let scraped = await metrics();
    expect(scraped.of("zapdesk_backup_upload_failures_total")).toEqual([{ value: "1" }]);
    expect(scraped.of("zapdesk_backup_uploads_failing")).toEqual([
      { value: "1", labels: { state: "retrying" } },
      { value: "0", labels: { state: "failed" } },
    ]);
    expect(scraped.of("zapdesk_backup_last_upload_timestamp_seconds")).toEqual([]);

    // Not before its time; then again, twice as long after.
    ctx.clock.advance(29_000);
    await runner.tick();
    expect((await offsite()).failures[0].attempts).toBe(1);
    ctx.clock.advance(1_000);
    await runner.tick();
    expect((await offsite()).failures[0]).toMatchObject({
      attempts: 2,
      nextAttemptAt: new Date(ctx.clock.now() + 60_000).toISOString(),
    });

    await s3.start();
    ctx.clock.advance(60_000);
    await runner.tick();
    const name = status.failures[0].name;
    expect(await s3.keys("zapdesk/")).toEqual([`zapdesk/${name}`]);
    expect(await offsite()).toMatchObject({ lastUpload: { name }, failures: [], queued: 0 });
    scraped = await metrics();
    expect(scraped.of("zapdesk_backup_upload_failures_total")).toEqual([{ value: "2" }]);
    expect(scraped.of("zapdesk_backup_last_upload_timestamp_seconds")).toEqual([
      { value: String(Math.floor(ctx.clock.now() / 1000)) },
    ]);
    expect(scraped.of("zapdesk_backup_uploads_failing")?.map((m) => m.value)).toEqual(["0", "0"]);
    expect(logged.join("\n")).toContain("backup uploaded");
    for (const shown of [JSON.stringify(await offsite()), scraped.text, logged.join("\n")])
      expect(shown).not.toContain(SECRET);
  });

  test("an upload refused for a wrong key is retried after a restart with the right one, and goes up once", async () => {
    const s3 = await localS3();
    const { ctx, start, offsite, logged } = await backupApp({
      backupS3: s3.location("zapdesk/", { accessKeyId: "WRONG", secretAccessKey: SECRET }),
    });
    const before = await start();
    ctx.clock.advance(DAY);
    await before.tick();
    await before.tick();
    expect((await offsite()).failures).toEqual([
      expect.objectContaining({ state: "retrying", attempts: 1, error: expect.stringContaining("InvalidAccessKeyId") }),
    ]);
    await before.stop();

    // The server starts again with the key put right: the upload waiting in the database is taken up.
    Object.assign(ctx.deps.config, { backupS3: s3.location("zapdesk/") });
    const after = await start();
    ctx.clock.advance(30_000);
    await after.tick();
    const uploaded = await offsite();
    expect([uploaded.failures, uploaded.queued]).toEqual([[], 0]);
    expect(await s3.keys("zapdesk/")).toEqual([`zapdesk/${uploaded.lastUpload.name}`]);
    ctx.clock.advance(3600_000);
    await after.tick();
    expect(logged.filter((line) => line.includes("backup uploaded"))).toHaveLength(1);
    expect(logged.join("\n")).toContain("InvalidAccessKeyId");
    expect(logged.join("\n")).not.toContain(SECRET);
  });

  test("an upload cut off by a crash is taken up by the restarted server once its lease ends", async () => {
    const s3 = await localS3();
    const { ctx, start, offsite } = await backupApp({ backupS3: s3.location("zapdesk/") });
    const runner = await start();
    ctx.clock.advance(DAY);
    await runner.tick();
    await runner.stop();
    // The process dies right after taking the upload: the job stays running under its lease (five minutes).
    expect(await claimDue(ctx.db, ["backup.upload"], ctx.clock.now(), 5 * 60_000, 1)).toHaveLength(1);
    expect((await offsite()).queued).toBe(1);

    const restarted = await start();
    await restarted.tick();
    expect(await s3.keys("zapdesk/")).toEqual([]);
    ctx.clock.advance(5 * 60_000 + 1);
    await restarted.tick();
    expect(await s3.keys("zapdesk/")).toHaveLength(1);
    expect(await offsite()).toMatchObject({ queued: 0, failures: [] });
  });

  test("an upload given up on stays on the card until a newer backup is uploaded", async () => {
    const s3 = await localS3();
    await s3.stop();
    const { ctx, start, offsite, metrics } = await backupApp({ backupS3: s3.location("") });
    const runner = await start();
    ctx.clock.advance(DAY);
    await runner.tick();
    for (let attempt = 0; attempt < 16; attempt++) {
      await runner.tick();
      ctx.clock.advance(3600_000);
    }
    const [failure] = (await offsite()).failures;
    expect(failure).toMatchObject({ state: "failed", attempts: 16, nextAttemptAt: null });
    expect((await metrics()).of("zapdesk_backup_uploads_failing")?.map((m) => m.value)).toEqual(["0", "1"]);
    await s3.start();
    ctx.clock.advance(DAY);
    await runner.tick();
    await runner.tick();
    const status = await offsite();
    expect(status.failures).toEqual([]);
    expect(status.lastUpload.name > failure.name).toBe(true);
  });

  test("Back up now is uploaded like a scheduled backup; without BACKUP_S3_URL the card says how to set it up", async () => {
    const s3 = await localS3();
    const { ctx, start, offsite } = await backupApp({ backupEveryHours: 0, backupS3: s3.location("zapdesk/") });
    const runner = await start();
    const admin = await loginAs(ctx, { profile: "admin" });
    const taken = await call(ctx.app, "POST", "/api/backups", { token: admin.token });
    expect((await offsite()).queued).toBe(1);
    await runner.tick();
    expect(await s3.keys("zapdesk/")).toEqual([`zapdesk/${taken.json.name}`]);

    const page = await ctx.app.handle(
      new Request("http://localhost/Settings", { headers: { cookie: admin.cookie, "accept-language": "en" } }),
    );
    const html = await page.text();
    expect(html).toContain("Off-site copies");
    expect(html).toContain(`Each scheduled backup is uploaded to ${s3.endpoint}/backups/zapdesk/`);
    expect(html).toContain(`Last upload: ${taken.json.name}`);
    expect(html).not.toContain(LOCAL_S3_KEYS.secretAccessKey);

    Object.assign(ctx.deps.config, { backupS3: undefined });
    expect(await offsite()).toEqual({ target: null, keep: 7, lastUpload: null, queued: 0, failures: [] });
    const agent = await loginAs(ctx);
    expect((await call(ctx.app, "GET", "/api/backups/offsite", { token: agent.token })).status).toBe(403);
  });
});

describe("the command line with BACKUP_S3_URL", () => {
  const io = () => {
    const lines: string[] = [];
    return { lines, out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  };
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-offsite-cli-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  test("zapdesk backup uploads the backup too and says where; restore --offsite NAME or latest restores one from there", async () => {
    const s3 = await localS3();
    const { ctx } = await backupApp({});
    const env = {
      DATA_DIR: ctx.deps.config.dataDir,
      BACKUP_S3_URL: `${s3.endpoint}/backups/cli`,
      BACKUP_S3_ACCESS_KEY_ID: "S3RVER",
      BACKUP_S3_SECRET_ACCESS_KEY: SECRET,
    };
    const out = join(tempDir(), "zapdesk-2026-01-02T03-04-05-006Z.sqlite");
    const said = io();
    expect(await runCommand(["backup", "--out", out], env, said)).toBe(0);
    expect(said.lines).toEqual([
      `backup written to ${out}`,
      `uploaded to ${s3.endpoint}/backups/cli/zapdesk-2026-01-02T03-04-05-006Z.sqlite`,
    ]);
    expect(await s3.keys("cli/")).toEqual(["cli/zapdesk-2026-01-02T03-04-05-006Z.sqlite"]);

    for (const name of ["latest", "zapdesk-2026-01-02T03-04-05-006Z.sqlite"]) {
      const dataDir = join(tempDir(), "data");
      const restored = io();
      expect(await runCommand(["restore", "--offsite", name], { ...env, DATA_DIR: dataDir }, restored)).toBe(0);
      expect(restored.lines).toEqual([
        `restored zapdesk-2026-01-02T03-04-05-006Z.sqlite from ${s3.endpoint}/backups/cli/; start the server to use it`,
      ]);
      const copy = new Database(join(dataDir, "zapdesk.sqlite"), { readonly: true });
      expect(copy.query("select email from users").all()).toHaveLength(1);
      copy.close();
    }
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("zapdesk-restore-"))).toEqual([]);
  });

  test("restore --offsite fails naming the off-site file, never a temporary one or a key", async () => {
    const s3 = await localS3();
    await s3.client().write("cli/notes.txt", "not a database");
    const env = {
      DATA_DIR: join(tempDir(), "data"),
      BACKUP_S3_URL: `${s3.endpoint}/backups/cli`,
      BACKUP_S3_ACCESS_KEY_ID: "S3RVER",
      BACKUP_S3_SECRET_ACCESS_KEY: SECRET,
    };
    const missing = io();
    expect(await runCommand(["restore", "--offsite", "nope.sqlite"], env, missing)).toBe(1);
    expect(missing.lines.join("\n")).toStartWith(
      `zapdesk restore: download nope.sqlite at ${s3.endpoint}/backups/cli/: NoSuchKey`,
    );
    const wrong = io();
    expect(await runCommand(["restore", "--offsite", "notes.txt"], env, wrong)).toBe(1);
    expect(wrong.lines.join("\n")).toStartWith(
      `zapdesk restore: cannot restore ${s3.endpoint}/backups/cli/notes.txt: `,
    );
    const none = io();
    expect(await runCommand(["restore", "--offsite", "latest"], env, none)).toBe(1);
    expect(none.lines).toEqual([`zapdesk restore: no scheduled backup in ${s3.endpoint}/backups/cli/`]);
    expect(await runCommand(["restore", "--offsite", "latest"], { DATA_DIR: env.DATA_DIR }, io())).toBe(2);
    for (const said of [missing, wrong, none]) expect(said.lines.join("\n")).not.toContain(SECRET);
  });

  test("zapdesk backup fails when the upload does, after writing the backup here", async () => {
    const s3 = await localS3();
    await s3.stop();
    const { ctx } = await backupApp({});
    const out = join(tempDir(), "b.sqlite");
    const said = io();
    const env = {
      DATA_DIR: ctx.deps.config.dataDir,
      BACKUP_S3_URL: `${s3.endpoint}/backups`,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: SECRET,
    };
    expect(await runCommand(["backup", "--out", out], env, said)).toBe(1);
    expect(said.lines).toEqual([
      `backup written to ${out}`,
      `zapdesk backup: upload b.sqlite at ${s3.endpoint}/backups/: ConnectionRefused: an unexpected error has occurred`,
    ]);
  });
});

describe("BACKUP_S3_URL", () => {
  const keys = { BACKUP_S3_ACCESS_KEY_ID: "AK", BACKUP_S3_SECRET_ACCESS_KEY: SECRET };

  test("names the store's address, the bucket and a folder; or s3://bucket/folder with BACKUP_S3_ENDPOINT", () => {
    expect(parseS3Location({ BACKUP_S3_URL: "https://s3.example.com/bucket/zapdesk/prod", ...keys })).toEqual({
      endpoint: "https://s3.example.com",
      bucket: "bucket",
      prefix: "zapdesk/prod/",
      region: undefined,
      accessKeyId: "AK",
      secretAccessKey: SECRET,
      shown: "https://s3.example.com/bucket/zapdesk/prod/",
    });
    expect(
      parseS3Location({
        BACKUP_S3_URL: "s3://bucket",
        BACKUP_S3_ENDPOINT: "http://127.0.0.1:9000",
        BACKUP_S3_REGION: "eu-1",
        ...keys,
      }),
    ).toMatchObject({ endpoint: "http://127.0.0.1:9000", bucket: "bucket", prefix: "", region: "eu-1" });
    expect(parseS3Location({ BACKUP_S3_URL: "s3://bucket/x", ...keys })).toMatchObject({
      endpoint: undefined,
      shown: "s3://bucket/x/",
    });
    expect(parseS3Location({})).toBeUndefined();
  });

  test("takes the keys from BACKUP_S3_*, else AWS_*, else the URL, and never shows them", () => {
    expect(
      parseS3Location({
        BACKUP_S3_URL: "https://s3.example.com/b",
        AWS_ACCESS_KEY_ID: "A",
        AWS_SECRET_ACCESS_KEY: "S",
      }),
    ).toMatchObject({ accessKeyId: "A", secretAccessKey: "S" });
    const inUrl = parseS3Location({ BACKUP_S3_URL: `https://AK:${SECRET}@s3.example.com/b/f` })!;
    expect(inUrl).toMatchObject({ accessKeyId: "AK", secretAccessKey: SECRET, shown: "https://s3.example.com/b/f/" });
    expect(() => parseS3Location({ BACKUP_S3_URL: "https://s3.example.com/b" })).toThrow(
      "BACKUP_S3_URL (https://s3.example.com/b/) needs keys: set BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY",
    );
    expect(() => parseS3Location({ BACKUP_S3_URL: `https://AK:${SECRET}@s3.example.com/` })).toThrow(
      "BACKUP_S3_URL names no bucket: https://s3.example.com//",
    );
    expect(() => parseS3Location({ BACKUP_S3_URL: `ftp://AK:${SECRET}@host/b` })).toThrow(
      /^BACKUP_S3_URL must be https:\/\/HOST\/BUCKET\/FOLDER or s3:\/\/BUCKET\/FOLDER/,
    );
  });
});

test("the upload state is read through the jobs' kind index, not by scanning every job (webhook deliveries included)", async () => {
  const ctx = await makeTestApp();
  const { sql, params } = jobsOfKind(ctx.db, "backup.upload").toSQL();
  const steps = sqliteClient(ctx.db)
    .query(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...(params as never[]))
    .map((row) => (row as { detail: string }).detail);
  expect(steps.join("; ")).toContain("USING INDEX jobs_kind_idx");
  expect(steps.some((d) => /^SCAN jobs$/.test(d) || d.includes("TEMP B-TREE"))).toBe(false);
});
