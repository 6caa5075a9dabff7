import { version } from "../package.json";
import { createApp } from "./app";
import { listeningOn } from "./http/public-origin";
import { runCommand } from "./cli";
import { loadConfig } from "./config";
import { startupFailure } from "./data-dirs";
import { composeDeps } from "./compose";
import { systemClock } from "./shared/clock";
import { scheduleAutoClose } from "./modules/tickets/auto-close";
import { scheduleBackups } from "./ops/backup-job";
import { scheduleWebhookPrune } from "./modules/webhooks/wiring";
import { scheduleAvailability } from "./modules/users/availability";
import { scheduleSlaSweep } from "./modules/tickets/sla-sweep";
import { createLogger } from "./log";
import { ensureFirstAdmin } from "./modules/auth/service";
import { keepRunningOnUncaughtErrors } from "./process-guards";
import { restrictDataDir } from "./private-files";
import { BunTopicHub } from "./realtime/hub";
import { stopServer } from "./shutdown";
import { keepLeases } from "./channels/leases";
import { jitReluctant, normalJit } from "./jit-policy";

/** Composition root: config → database + migrations → seed → hub → app → listen; stops cleanly on signals. */
async function main() {
  const config = loadConfig();
  restrictDataDir(config);
  const log = createLogger(config.logLevel, undefined, config.logFormat);
  keepRunningOnUncaughtErrors(log);
  for (const warning of config.warnings ?? []) log.warn(warning);
  const hub = new BunTopicHub();
  const { deps, db, channels, sandboxNetwork, leases } = await composeDeps({
    config,
    hub,
    log,
    clock: systemClock,
    baileys: true,
  });
  await ensureFirstAdmin(deps);

  const hostname = process.env.HOST || "0.0.0.0";
  const app = (await createApp(deps))
    .onRequest(({ request }) => requestIsWork(request))
    .listen({ port: config.port, hostname });
  hub.attach(app.server!);
  deps.metrics.countSocketsWith(() => app.server!.subscriberCount("all"));
  if (config.corsOrigins.length > 0 && !config.publicUrl)
    log.warn(
      "CORS_ORIGINS is set without PUBLIC_URL: live message events of frontends on those origins carry media links relative to Zapdesk, which they cannot open; set PUBLIC_URL to the address browsers reach Zapdesk at",
    );
  // The first work ends the JIT's start-up reluctance (jit-policy.ts): a request, a connection up (its traffic
  // follows), a job with work.
  channels.onConnected(normalJit);
  deps.jobs.onWork(normalJit);
  void channels.startAll();
  // With nodes sharing PostgreSQL: leases renewed, and a dead node's connections taken over.
  const keeper = leases && keepLeases(leases, channels, log);
  const jobs = deps.jobs;
  await scheduleAutoClose(jobs, deps, config.autoCloseHours);
  await scheduleBackups(jobs, config, log, () => deps.clock.now(), deps.metrics);
  await jobs.prune();
  await scheduleWebhookPrune(deps);
  await scheduleAvailability(deps);
  await scheduleSlaSweep(deps);
  jobs.start();
  // Starting leaves garbage behind (module set-up, route compilation, the migrations journal): collect it once
  // the server is up and give the freed heap pages back, so an idle server holds only what it uses (~4 MiB).
  setTimeout(() => {
    Bun.gc(true);
    Bun.shrink();
  }, 500).unref();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await stopServer(
      {
        app,
        stopJobs: () => {
          keeper?.stop();
          return jobs.stop();
        },
        channels,
        sandboxNetwork,
        db,
        events: deps.events,
        log,
      },
      signal,
    );
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Said once the server is ready and stops cleanly on a signal.
  log.info(`Zapdesk ${version} listening on ${listeningOn(hostname, app.server!.port!, config.publicUrl)}`, {
    dataDir: config.dataDir,
  });
}

/** A request is work, but a health check is not: supervisors and load balancers probe an idle server too. */
function requestIsWork(request: Request) {
  if (jitReluctant() && new URL(request.url).pathname !== "/health") normalJit();
}

// Everything the process creates (database, WAL, media, secrets, backups) is private to its user.
process.umask(0o077);
const code = await runCommand(process.argv.slice(2));
if (code !== null) process.exit(code);
// A start that fails ends the process with exit code 1 (a supervisor sees the failure and restarts it), in one
// line when the cause is known; thrown on, the error would only be logged by the guard above and the process end
// with 0.
await main().catch((error) => {
  console.error(startupFailure(error) ?? error);
  process.exit(1);
});
