/**
 * The app's bulk side in a process of its own, for the crash test: the server's wiring (composeDeps, its job
 * runner and the sandbox network) on a file database (or a PostgreSQL one), with a clock that runs SPEED times
 * faster than real time from CLOCK_ORIGIN, so a campaign with one-second waits runs in a fraction of that.
 * Killed with SIGKILL by the test. Environment: DB_PATH or DB_URL, DATA_DIR, CLOCK_ORIGIN (epoch ms), SPEED.
 */
import { eq } from "drizzle-orm";
import { composeDeps } from "../src/compose";
import { connections } from "../src/db/tables";
import { createLogger } from "../src/log";
import { RecordingHub } from "../src/realtime/hub";
import { testConfig } from "./helpers";

const env = process.env;
const origin = Number(env.CLOCK_ORIGIN);
const speed = Number(env.SPEED) || 1;
const clock = { now: () => origin + (Date.now() - origin) * speed };
const { deps, db, channels, sandbox } = await composeDeps({
  config: testConfig({
    databasePath: env.DB_PATH!,
    ...(env.DB_URL ? { databaseUrl: env.DB_URL } : {}),
    dataDir: env.DATA_DIR!,
    mediaDir: `${env.DATA_DIR}/media`,
  }),
  hub: new RecordingHub(),
  log: createLogger("silent"),
  clock,
});
await channels.startAll();
for (const row of await db.select().from(connections).where(eq(connections.provider, "sandbox")))
  if (row.status !== "CONNECTED") await sandbox.scan(row.id);
deps.jobs.start(5);
