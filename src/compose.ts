import { BaileysDriver, type BaileysDriverOptions } from "./channels/baileys/driver";
import { createIngest } from "./channels/ingest";
import { ConnectionManager } from "./channels/manager";
import { SandboxDriver } from "./channels/sandbox/driver";
import { SandboxNetwork } from "./channels/sandbox/network";
import type { Config } from "./config";
import { openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import type { AppDeps, Clock } from "./deps";
import type { Logger } from "./log";
import { seedSettings } from "./modules/settings/service";
import type { RealtimeHub } from "./realtime/hub";

/**
 * Opens the database (migrated, settings seeded) and builds the connection manager with its drivers and the
 * inbound pipeline: the wiring shared by server.ts, the tests and the benchmarks.
 */
export function composeDeps(opts: {
  config: Config;
  hub: RealtimeHub;
  log: Logger;
  clock: Clock;
  /** Registers the Baileys driver; tests pass its options (a local fake server, time limits). */
  baileys?: boolean | Partial<Omit<BaileysDriverOptions, "db" | "log">>;
}) {
  const { config, hub, log, clock } = opts;
  const db = openDatabase(config.databasePath);
  runMigrations(db);
  seedSettings(db);
  const channels = new ConnectionManager({ db, hub, log });
  const maxMediaBytes = config.maxMediaMb * 1024 * 1024;
  const sandboxNetwork = new SandboxNetwork({ db, mediaDir: config.mediaDir, now: () => clock.now(), maxMediaBytes });
  const sandbox = new SandboxDriver(sandboxNetwork);
  channels.register(sandbox);
  if (opts.baileys) {
    const extra = opts.baileys === true ? {} : opts.baileys;
    channels.register(new BaileysDriver({ db, mediaDir: config.mediaDir, log, maxMediaBytes, version: config.waVersion, ...extra }));
  }
  const deps: AppDeps = { config, db, hub, log, clock, channels };
  channels.setInbound(createIngest(deps));
  return { deps, db, channels, sandbox, sandboxNetwork };
}
