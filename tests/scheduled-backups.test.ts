// @engine once
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JobRunner } from "../src/jobs/runner";
import { createLogger } from "../src/log";
import { scheduleBackups } from "../src/ops/backup-job";
import { call, loginAs, makeTestApp } from "./helpers";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

async function fileApp(overrides: { backupEveryHours?: number; backupKeep?: number } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-sched-"));
  dirs.push(dataDir);
  mkdirSync(join(dataDir, "media"));
  const ctx = await makeTestApp({
    dataDir,
    databasePath: join(dataDir, "zapdesk.sqlite"),
    mediaDir: join(dataDir, "media"),
    ...overrides,
  });
  const runner = new JobRunner({ db: ctx.db, clock: ctx.clock, log: createLogger("silent") });
  await scheduleBackups(runner, ctx.deps.config, createLogger("silent"), () => ctx.clock.now());
  return { ctx, runner, dir: join(dataDir, "backups") };
}

describe("scheduled backups", () => {
  test("run every BACKUP_EVERY_HOURS as a job and keep the newest BACKUP_KEEP", async () => {
    const { ctx, runner, dir } = await fileApp({ backupEveryHours: 24, backupKeep: 3 });
    for (let day = 0; day < 5; day++) {
      ctx.clock.advance(24 * 3600_000);
      await runner.tick();
    }
    const kept = readdirSync(dir).sort();
    expect(kept).toHaveLength(3);
    const newest = new Date(ctx.clock.now()).toISOString().replace(/[:.]/g, "-");
    expect(kept.at(-1)).toBe(`zapdesk-${newest}.sqlite`);
    const copy = new Database(join(dir, kept.at(-1)!), { readonly: true });
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    copy.close();
  });

  test("BACKUP_EVERY_HOURS=0 takes none", async () => {
    const { ctx, runner, dir } = await fileApp({ backupEveryHours: 0 });
    ctx.clock.advance(48 * 3600_000);
    await runner.tick();
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  test("POST /api/backups takes one now, like a scheduled one (in the BACKUP_KEEP count); agents are refused, PostgreSQL answers 409", async () => {
    const { ctx, dir } = await fileApp({ backupEveryHours: 0, backupKeep: 2 });
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx);
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(60_000);
      const res = await call(ctx.app, "POST", "/api/backups", { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ kind: "scheduled", size: expect.any(Number), createdAt: expect.any(String) });
      names.push((res.json as { name: string }).name);
    }
    expect(names.at(-1)).toBe(`zapdesk-${new Date(ctx.clock.now()).toISOString().replace(/[:.]/g, "-")}.sqlite`);
    expect(readdirSync(dir).sort()).toEqual(names.slice(1));
    const copy = new Database(join(dir, names.at(-1)!), { readonly: true });
    expect(copy.query("select count(*) as n from users").get()).toEqual({ n: 2 });
    copy.close();
    expect((await call(ctx.app, "POST", "/api/backups", { token: agent.token })).status).toBe(403);
    // An installation on PostgreSQL (told by DATABASE_URL) has no SQLite file to copy.
    Object.assign(ctx.deps.config, { databaseUrl: "postgres://db.example/zapdesk" });
    const refused = await call(ctx.app, "POST", "/api/backups", { token: admin.token });
    expect([refused.status, (refused.json as { error: string }).error]).toEqual([409, "ERR_BACKUP_NOT_AVAILABLE"]);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  test("admins list backups and download one (Bearer, or a signed link, never ?token=); agents and odd names are refused", async () => {
    const { ctx, runner } = await fileApp({ backupEveryHours: 1 });
    ctx.clock.advance(3600_000);
    await runner.tick();
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx);
    const list = await call(ctx.app, "GET", "/api/backups", { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(1);
    expect(list.json[0]).toMatchObject({ kind: "scheduled" });
    expect(list.json[0].size).toBeGreaterThan(0);
    const name = list.json[0].name as string;
    expect(
      (await ctx.app.handle(new Request(`http://localhost/api/backups/${name}?token=${admin.token}`))).status,
    ).toBe(401);
    const link = await call(ctx.app, "POST", `/api/backups/${name}/link`, { token: admin.token });
    expect(link.json.url).toMatch(new RegExp(`^/api/backups/${name}\\?expires=\\d+&signature=[\\w-]+$`));
    expect(link.json.url).not.toContain(admin.token);
    const download = await ctx.app.handle(new Request(`http://localhost${link.json.url}`));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    expect((await download.arrayBuffer()).byteLength).toBe(list.json[0].size);
    expect((await call(ctx.app, "GET", "/api/backups", { token: agent.token })).status).toBe(403);
    expect((await call(ctx.app, "GET", `/api/backups/${name}`, { token: agent.token })).status).toBe(403);
    expect(
      (await call(ctx.app, "GET", `/api/backups/${encodeURIComponent("../zapdesk.sqlite")}`, { token: admin.token }))
        .status,
    ).toBe(404);
    expect((await call(ctx.app, "GET", `/api/backups/${name}`)).status).toBe(401);
    expect((await call(ctx.app, "POST", `/api/backups/${name}/link`, { token: agent.token })).status).toBe(403);
    expect((await call(ctx.app, "POST", "/api/backups/nope.sqlite/link", { token: admin.token })).status).toBe(404);
  });

  test("a backup's signed link expires after five minutes and opens only that backup", async () => {
    const { ctx, runner } = await fileApp({ backupEveryHours: 1 });
    for (let i = 0; i < 2; i++) {
      ctx.clock.advance(3600_000);
      await runner.tick();
    }
    const admin = await loginAs(ctx, { profile: "admin" });
    const [first, second] = (await call(ctx.app, "GET", "/api/backups", { token: admin.token })).json as {
      name: string;
    }[];
    const link = (await call(ctx.app, "POST", `/api/backups/${first!.name}/link`, { token: admin.token })).json
      .url as string;
    const open = (url: string) => ctx.app.handle(new Request(`http://localhost${url}`));
    expect((await open(link.replace(first!.name, second!.name))).status).toBe(403);
    ctx.clock.advance(299_000);
    expect((await open(link)).status).toBe(200);
    ctx.clock.advance(2_000);
    const late = await open(link);
    expect(late.status).toBe(403);
    expect(await late.json()).toMatchObject({ error: "ERR_LINK_EXPIRED" });
  });
});
