// @engine once
import { CloudDriver } from "../src/channels/cloud/driver";
import { Passwords } from "../src/modules/auth/passwords";
import { closeDatabase, openDatabase, sqliteClient } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import { ConnectionManager } from "../src/channels/manager";
import { loadConfig } from "../src/config";
import { runMigrations } from "../src/db/migrate";
import type { AppDeps } from "../src/deps";
import { LocalEventBus } from "../src/events/bus";
import { createLogger } from "../src/log";
import { createAppMetrics } from "../src/monitoring/app-metrics";
import { ensureFirstAdmin } from "../src/modules/auth/service";
import { connectionRecords } from "../src/modules/connections/records";
import { Outbox } from "../src/modules/messages/outbox";
import { seedSettings, updateSetting } from "../src/modules/settings/service";
import { RecordingHub } from "../src/realtime/hub";
import { SocketPresence } from "../src/realtime/presence";
import { JobRunner } from "../src/jobs/runner";
import { KeyedLanes } from "../src/shared/lanes";
import { call, fakeResolver, TestClock } from "./helpers";

async function boot(env: Record<string, string>) {
  const config = {
    ...loadConfig(env),
    passwordHashing: { algorithm: "argon2id" as const, memoryCost: 8, timeCost: 1 },
  };
  const db = openDatabase(config.databasePath);
  runMigrations(db);
  await seedSettings(db);
  const hub = new RecordingHub();
  const log = createLogger("silent");
  const clock = new TestClock();
  const events = new LocalEventBus(log);
  const deps: AppDeps = {
    config,
    db,
    events,
    hub,
    presence: new SocketPresence(),
    log,
    clock,
    passwords: new Passwords(config.passwordHashing),
    channels: new ConnectionManager({ db, records: connectionRecords(db, events), log }),
    outbox: new Outbox(),
    metrics: createAppMetrics(db),
    jobs: new JobRunner({ db, clock, log }),
    lanes: new KeyedLanes<string>(),
    resolver: fakeResolver(),
    cloud: new CloudDriver({
      db,
      accounts: async () => undefined,
      mediaDir: config.mediaDir,
      log,
      apiUrl: config.cloudApiUrl,
      apiVersion: config.cloudApiVersion,
      maxMediaBytes: config.maxMediaMb,
    }),
  };
  return deps;
}

describe("storage", () => {
  test("migrations build every table on an empty database, in WAL mode with foreign keys on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-"));
    const deps = await boot({ DATA_DIR: dir });
    const tables = sqliteClient(deps.db).query("select name from sqlite_master where type='table'").all() as {
      name: string;
    }[];
    const names = tables.map((t) => t.name);
    for (const t of [
      "users",
      "whatsapps",
      "tickets",
      "messages",
      "contacts",
      "contact_extra_info",
      "queues",
      "chatbots",
      "user_queues",
      "whatsapp_queues",
      "quick_answers",
      "schedules",
      "mass_messages",
      "settings_message",
      "settings",
      "tags",
      "ticket_tags",
      "wa_auth_creds",
      "wa_auth_keys",
    ])
      expect(names).toContain(t);
    expect(sqliteClient(deps.db).query("pragma journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(sqliteClient(deps.db).query("pragma foreign_keys").get()).toEqual({ foreign_keys: 1 });
    runMigrations(deps.db);
    await closeDatabase(deps.db);
  });

  test("a restart with the same DATA_DIR keeps users, settings, secrets and issued tokens", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-"));
    const env = { DATA_DIR: dir, ADMIN_EMAIL: "Boss@Acme.test", ADMIN_PASSWORD: "s3cret-pass" };
    const first = await boot(env);
    await ensureFirstAdmin(first);
    await updateSetting(first, "chatBotType", "list");
    const app1 = await createApp(first);
    const login = await call(app1, "POST", "/api/auth/login", {
      body: { email: "boss@acme.test", password: "s3cret-pass" },
    });
    expect(login.json.user.profile).toBe("admin");
    await closeDatabase(first.db);
    expect(statSync(join(dir, "secrets.json")).mode & 0o777).toBe(0o600);

    const second = await boot(env);
    await ensureFirstAdmin(second);
    expect(second.config.jwtSecret).toBe(first.config.jwtSecret);
    const app2 = await createApp(second);
    const settings = await call(app2, "GET", "/api/settings", { token: login.json.token });
    expect(settings.status).toBe(200);
    expect(settings.json.find((s: { key: string }) => s.key === "chatBotType").value).toBe("list");
    const users = sqliteClient(second.db).query("select count(*) as n from users").get() as { n: number };
    expect(users.n).toBe(1);
    await closeDatabase(second.db);
  });

  test("without ADMIN_PASSWORD the first admin gets a random password, logged once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-"));
    const deps = await boot({ DATA_DIR: dir });
    const lines: string[] = [];
    deps.log = createLogger("info", (l) => lines.push(l));
    await ensureFirstAdmin(deps);
    await ensureFirstAdmin(deps);
    expect(lines).toHaveLength(1);
    const password = lines[0]!.match(/with password (\S+)/)![1]!;
    const app = await createApp(deps);
    const login = await call(app, "POST", "/api/auth/login", { body: { email: "admin@example.com", password } });
    expect(login.status).toBe(200);
    await closeDatabase(deps.db);
  });

  test("configured secrets win over generated ones and a bad PORT is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-"));
    const config = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: "from-env-1",
      JWT_REFRESH_SECRET: "from-env-2",
      PORT: "9000",
    });
    expect(config).toMatchObject({ jwtSecret: "from-env-1", jwtRefreshSecret: "from-env-2", port: 9000 });
    expect(() => loadConfig({ DATA_DIR: dir, PORT: "http" })).toThrow();
  });
});
