import { createApp } from "./app";
import { loadConfig } from "./config";
import { composeDeps } from "./compose";
import { systemClock } from "./deps";
import { startAutoClose } from "./jobs/auto-close";
import { createLogger } from "./log";
import { ensureFirstAdmin } from "./modules/auth/service";
import { keepRunningOnUncaughtErrors } from "./process-guards";
import { restrictDataDir } from "./private-files";
import { BunTopicHub } from "./realtime/hub";
import { stopServer } from "./shutdown";

/** Composition root: config → database + migrations → seed → hub → app → listen; stops cleanly on signals. */
async function main() {
  // Everything the process creates (database, WAL, media, secrets) is private to its user.
  process.umask(0o077);
  const config = loadConfig();
  restrictDataDir(config);
  const log = createLogger(config.logLevel);
  keepRunningOnUncaughtErrors(log);
  const hub = new BunTopicHub();
  const { deps, db, channels, sandboxNetwork } = composeDeps({ config, hub, log, clock: systemClock, baileys: true });
  await ensureFirstAdmin(deps);

  const app = (await createApp(deps)).listen({ port: config.port, hostname: process.env.HOST || "0.0.0.0" });
  hub.attach(app.server!);
  log.info(`Zapdesk listening on http://localhost:${app.server!.port}`, { dataDir: config.dataDir });
  void channels.startAll();
  const stopAutoClose = startAutoClose(deps, config.autoCloseHours);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await stopServer({ app, stopJobs: stopAutoClose, channels, sandboxNetwork, db, log }, signal);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

await main();
