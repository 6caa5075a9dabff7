import { createApp } from "./app";
import { createIngest } from "./channels/ingest";
import { BaileysDriver } from "./channels/baileys/driver";
import { ConnectionManager } from "./channels/manager";
import { SandboxDriver } from "./channels/sandbox/driver";
import { SandboxNetwork } from "./channels/sandbox/network";
import { loadConfig } from "./config";
import { closeDatabase, openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import { type AppDeps, systemClock } from "./deps";
import { createLogger } from "./log";
import { ensureFirstAdmin } from "./modules/auth/service";
import { seedSettings } from "./modules/settings/service";
import { BunTopicHub } from "./realtime/hub";

/** Composition root: config → database + migrations → seed → hub → app → listen; stops cleanly on signals. */
async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const db = openDatabase(config.databasePath);
  runMigrations(db);
  const hub = new BunTopicHub();
  const channels = new ConnectionManager({ db, hub, log });
  const sandboxNetwork = new SandboxNetwork({ db, mediaDir: config.mediaDir });
  channels.register(new SandboxDriver(sandboxNetwork));
  channels.register(new BaileysDriver({ db, mediaDir: config.mediaDir, log }));
  const deps: AppDeps = { config, db, hub, log, clock: systemClock, channels };
  channels.setInbound(createIngest(deps));
  seedSettings(db);
  await ensureFirstAdmin(deps);

  const app = (await createApp(deps)).listen({ port: config.port, hostname: process.env.HOST || "0.0.0.0" });
  hub.attach(app.server!);
  log.info(`Zapdesk listening on http://localhost:${app.server!.port}`, { dataDir: config.dataDir });
  void channels.startAll();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    await app.stop(true);
    await channels.stopAll();
    sandboxNetwork.cancelAll();
    closeDatabase(db);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

await main();
