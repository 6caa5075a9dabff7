import type { Channels } from "./channels/types";
import type { Config } from "./config";
import type { Db } from "./db/client";
import type { JobRunner } from "./jobs/runner";
import type { Logger } from "./log";
import type { Outbox } from "./modules/messages/outbox";
import type { AppMetrics } from "./monitoring/app-metrics";
import type { RealtimeHub } from "./realtime/hub";

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Everything a route or service may depend on; built once in server.ts, or once per test. */
export interface AppDeps {
  config: Config;
  db: Db;
  hub: RealtimeHub;
  log: Logger;
  clock: Clock;
  channels: Channels;
  /** Sends stored messages on their connection, in order, when it is connected. */
  outbox: Outbox;
  metrics: AppMetrics;
  /** Timed work kept in the database (started by server.ts; tests call `tick`). */
  jobs: JobRunner;
}
