/**
 * The app's WhatsApp side in a process of its own, for the stop and crash tests: the wiring the server uses
 * (database, connection manager, inbound pipeline, Baileys driver) on a file database (or a PostgreSQL one),
 * against a fake server running in the test's process, and the server's own shutdown on SIGTERM.
 * Environment: FAKEWA_URL and FAKEWA_ROOT (the fake's address and root key), DB_PATH or DB_URL, MEDIA_DIR,
 * HANDLE_DELAY_MS (each inbound message is handled that much later, as by a slow pipeline), DRAIN_TIMEOUT_MS.
 */
import { composeDeps } from "../../../src/compose";
import { systemClock } from "../../../src/shared/clock";
import { createLogger } from "../../../src/log";
import { createIngest } from "../../../src/modules/inbound/ingest";
import { RecordingHub } from "../../../src/realtime/hub";
import { stopServer } from "../../../src/shutdown";
import { testConfig } from "../../helpers";
import { trustFakeRoot } from "./server";

const env = process.env;
trustFakeRoot(env.FAKEWA_ROOT!);
const log = createLogger(env.FAKEWA_LOG ? "debug" : "silent");
const { deps, db, channels, sandboxNetwork } = await composeDeps({
  config: testConfig({
    databasePath: env.DB_PATH!,
    ...(env.DB_URL ? { databaseUrl: env.DB_URL } : {}),
    mediaDir: env.MEDIA_DIR!,
    dataDir: env.MEDIA_DIR!,
  }),
  hub: new RecordingHub(),
  log,
  clock: systemClock,
  baileys: {
    waWebSocketUrl: env.FAKEWA_URL,
    fetchLatestVersion: false,
    ...(env.DRAIN_TIMEOUT_MS ? { drainTimeoutMs: Number(env.DRAIN_TIMEOUT_MS) } : {}),
    // The fake sends no history: skip the 20 s initial-sync wait.
    socketConfig: { shouldSyncHistoryMessage: () => false },
  },
});

const delay = Number(env.HANDLE_DELAY_MS) || 0;
if (delay) {
  const ingest = createIngest(deps);
  channels.setInbound({
    ...ingest,
    onMessage: async (id, message) => (await Bun.sleep(delay), await ingest.onMessage(id, message)),
  });
}

let stopping = false;
process.on("SIGTERM", () => {
  if (stopping) return;
  stopping = true;
  void stopServer({ channels, sandboxNetwork, db, log }, "SIGTERM").then(() => process.exit(0));
});
await channels.startAll();
