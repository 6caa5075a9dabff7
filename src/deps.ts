import type { SandboxControls } from "./channels/sandbox/controls";
import type { CloudWebhooks } from "./channels/cloud/webhooks";
import type { Channels } from "./channels/types";
import type { Config } from "./config";
import type { Db } from "./db/client";
import type { EventBus } from "./events/bus";
import type { HostResolver } from "./http/host-resolver";
import type { JobRunner } from "./jobs/runner";
import type { Logger } from "./log";
import type { RealtimeHub } from "./realtime/hub";
import type { SocketPresence } from "./realtime/presence";
import type { Clock } from "./shared/clock";
import type { KeyedLanes } from "./shared/lanes";

/** Sends stored messages on their connection, in order, when it is connected (messages/outbox.ts). */
export interface OutboxQueue {
  /** Sends what waits on the connection; resolves once `messageId` (or everything) had its turn. */
  flush(deps: AppDeps, connectionId: number, messageId?: number): Promise<void>;
  /** Resolves when nothing is being sent on the connection. */
  idle(connectionId: number): Promise<void>;
}

/** What the rest of the app reports to /metrics (monitoring/app-metrics.ts). */
export interface Metrics {
  text(): Promise<string>;
  observeRequest(method: string, status: number, seconds: number): void;
  /** An upload of a backup to BACKUP_S3_URL ended, well or not. */
  observeBackupUpload(ok: boolean): void;
  /** Where the open-socket count comes from once the server listens. */
  countSocketsWith(read: () => number): void;
}

/** Password hashing and checking, bounded (modules/auth/passwords.ts): past its capacity they throw 429. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** How long one hash takes lately, in ms. */
  typicalMs(): number;
}

/** Everything a route or service may depend on; built once in compose.ts, or once per test. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** Where services announce what happened (domain events); realtime, webhooks and metrics listen. */
  events: EventBus;
  /** The browsers' rooms; only the realtime layer publishes to it. */
  hub: RealtimeHub;
  /** Which users have a socket open on this node (the socket registry counts them; availability follows). */
  presence: SocketPresence;
  log: Logger;
  clock: Clock;
  passwords: PasswordHasher;
  channels: Channels;
  outbox: OutboxQueue;
  metrics: Metrics;
  /** The background job runner (started by server.ts; tests call `tick`). */
  jobs: JobRunner;
  /** Work that events start, run in order per key after the emitting code (`settled(key)` waits for it). */
  lanes: KeyedLanes<string>;
  /** DNS and this machine's addresses, for checking where webhooks go (tests pass one that needs no network). */
  resolver: HostResolver;
  /** Where the WhatsApp Cloud API's webhooks are taken in (the cloud driver). */
  cloud: CloudWebhooks;
  /** Drives the simulated phones of sandbox connections; absent when the sandbox is switched off. */
  sandbox?: SandboxControls;
  /** This node's name when nodes share PostgreSQL (the holder named in connection leases). */
  nodeId?: string;
}
