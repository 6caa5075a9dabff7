import type { BaileysDriverOptions } from "./channels/baileys/driver";
import { LazyBaileysDriver } from "./channels/baileys/lazy";
import { CloudDriver } from "./channels/cloud/driver";
import { ConnectionCommands } from "./channels/commands";
import { ConnectionManager } from "./channels/manager";
import { routedSandbox } from "./channels/sandbox/routed";
import { SandboxDriver } from "./channels/sandbox/driver";
import { SandboxNetwork } from "./channels/sandbox/network";
import type { Config } from "./config";
import { singleConnectionUrl } from "./db/postgres-url";
import type { EventBus } from "./events/bus";
import { type HostResolver, systemResolver } from "./http/host-resolver";
import { PgEventBus, startPgEventBus } from "./events/pg-bus";
import type { DomainEvent } from "./events/catalogue";
import { ConnectionLeases, nodeName } from "./channels/leases";
import { sharedSecrets } from "./modules/auth/cluster-secrets";
import { Passwords } from "./modules/auth/passwords";
import type { AppDeps } from "./deps";
import type { Clock } from "./shared/clock";
import { LocalEventBus } from "./events/bus";
import { JobRunner } from "./jobs/runner";
import type { Logger } from "./log";
import { resumeInterruptedRecipients, startBulk, wakeRecipients } from "./modules/bulk/recipients";
import { startSchedules } from "./modules/schedules/jobs";
import { handleWakeJobs } from "./modules/tickets/snooze";
import { KeyedLanes } from "./shared/lanes";
import { cloudAccountOf } from "./modules/connections/cloud-account";
import { connectionRecords } from "./modules/connections/records";
import { createIngest } from "./modules/inbound/ingest";
import { Outbox, requeueInterrupted } from "./modules/messages/outbox";
import { seedSettings } from "./modules/settings/service";
import { startWebhooks } from "./modules/webhooks/wiring";
import { startAutoSummaries } from "./modules/ai/auto-summary";
import { createAppMetrics } from "./monitoring/app-metrics";
import { openStorage } from "./ops/storage";
import type { RealtimeHub } from "./realtime/hub";
import { publishToBrowsers } from "./realtime/listener";
import { SocketPresence } from "./realtime/presence";
import { followSockets } from "./modules/users/availability";
import { followAssignmentTriggers } from "./modules/tickets/assignment-triggers";
import { presentToBrowsers } from "./modules/messages/present";
import { showPresenceHere } from "./modules/presence/agent";

/**
 * Opens the database (migrated, settings seeded) and builds the event bus (browsers, metrics and webhooks
 * listen), the connection manager with its drivers, the inbound pipeline and the outbox (flushed whenever a connection becomes CONNECTED): the wiring shared by
 * server.ts, the tests and the benchmarks.
 */
export async function composeDeps(opts: {
  config: Config;
  hub: RealtimeHub;
  log: Logger;
  clock: Clock;
  /** Registers the Baileys driver (loaded when a connection first starts); tests pass its options (a local fake server, time limits). */
  baileys?: boolean | Partial<Omit<BaileysDriverOptions, "db" | "log">>;
  /** The cloud driver's waits before retrying a rate-limited Graph call (tests: none). */
  cloudRetryDelaysMs?: number[];
  /** The sandbox's ack steps wait for `settle()` instead of timers (tests). */
  manualSandboxAcks?: boolean;
  /** The only node, even on PostgreSQL (tests of one node): events stay here, connections need no lease. */
  singleNode?: boolean;
  /** DNS and own addresses for webhook checks; the machine's by default. */
  resolver?: HostResolver;
}) {
  const { hub, log, clock } = opts;
  const db = await openStorage(opts.config, log);
  const config = opts.config.secretsInDatabase ? { ...opts.config, ...(await sharedSecrets(db)) } : opts.config;
  await seedSettings(db);
  // Nodes sharing PostgreSQL tell each other what happened (their browsers show it all).
  const events: EventBus =
    config.databaseUrl && !opts.singleNode
      ? await startPgEventBus({ url: singleConnectionUrl(config.databaseUrl), log, now: () => clock.now() })
      : new LocalEventBus(log);
  publishToBrowsers(events, hub, (event) => presentToBrowsers({ config, clock }, event));
  // Nodes sharing PostgreSQL run each connection on one of them, by lease.
  const leases =
    config.databaseUrl && !opts.singleNode ? new ConnectionLeases(db, nodeName(config.dataDir), Date.now) : undefined;
  const commands =
    leases && new ConnectionCommands(db, log, (connectionId) => events.emit("connection.commanded", { connectionId }));
  const channels = new ConnectionManager({ db, records: connectionRecords(db, events), log, leases, commands });
  const maxMediaBytes = config.maxMediaMb * 1024 * 1024;
  const sandboxNetwork = new SandboxNetwork({
    db,
    mediaDir: config.mediaDir,
    now: () => clock.now(),
    maxMediaBytes,
    ...(opts.manualSandboxAcks ? { delays: "manual" as const } : {}),
  });
  const sandbox = new SandboxDriver(sandboxNetwork);
  channels.register(sandbox);
  const cloud = new CloudDriver({
    db,
    accounts: (connectionId) => cloudAccountOf(db, connectionId),
    mediaDir: config.mediaDir,
    log,
    apiUrl: config.cloudApiUrl,
    apiVersion: config.cloudApiVersion,
    maxMediaBytes,
    retryDelaysMs: opts.cloudRetryDelaysMs,
  });
  channels.register(cloud);
  if (opts.baileys) {
    const extra = opts.baileys === true ? {} : opts.baileys;
    channels.register(
      new LazyBaileysDriver({
        db,
        mediaDir: config.mediaDir,
        log,
        maxMediaBytes,
        version: config.waVersion,
        waWebSocketUrl: config.waSocketUrl,
        certRoot: config.waCertRoot,
        ...extra,
      }),
    );
  }
  const metrics = createAppMetrics(db, config);
  events.subscribe((event) => metrics.observeEvent(event));
  const deps: AppDeps = {
    config,
    db,
    events,
    hub,
    presence: new SocketPresence(),
    log,
    clock,
    passwords: new Passwords(config.passwordHashing, config.passwordHashConcurrency),
    channels,
    outbox: new Outbox(),
    metrics,
    jobs: new JobRunner({ db, clock, log }),
    lanes: new KeyedLanes<string>(),
    resolver: opts.resolver ?? systemResolver,
    cloud,
    sandbox: config.sandbox ? routedSandbox(sandbox, channels, commands) : undefined,
    nodeId: leases?.nodeId,
  };
  await startWebhooks(deps);
  startAutoSummaries(deps);
  followSockets(deps);
  followAssignmentTriggers(deps);
  channels.setInbound(createIngest(deps));
  // Nothing is being sent yet in this process: a row still `sending`, or a bulk recipient still running, was cut
  // off by a stop or a crash. With several nodes, only once this node holds the connection: the node running it
  // may be sending right now.
  if (leases)
    channels.onTakenHere(async (connectionId) => {
      await requeueInterrupted(deps, connectionId);
      await resumeInterruptedRecipients(deps, connectionId);
    });
  else {
    await requeueInterrupted(deps);
    await resumeInterruptedRecipients(deps);
  }
  channels.onConnected((connectionId) => {
    void deps.outbox.flush(deps, connectionId);
    wakeRecipients(deps, connectionId).catch((error) => log.warn("bulk recipients not woken", { error }));
  });
  // A message written, a command stored, or a Cloud API notification journaled on another node for a connection this node runs is taken up here.
  if (events instanceof PgEventBus)
    events.subscribeOthers((event) => {
      if (event.name === "connection.commanded") void channels.runCommands(event.payload.connectionId);
      else if (event.name === "connection.inbound") void cloud.resume(event.payload.connectionId);
      else if (event.name === "chat.ownPresence") void showPresenceHere(deps, event.payload);
      else void sendIfRunHere(deps, event);
    });
  startBulk(deps);
  await startSchedules(deps);
  handleWakeJobs(deps);
  return { deps, db, channels, sandbox, sandboxNetwork, leases, cloud };
}

async function sendIfRunHere(deps: AppDeps, event: DomainEvent) {
  if (event.name !== "message.created" || event.payload.message.sendState !== "queued") return;
  const connectionId = event.payload.message.whatsappId;
  if (connectionId != null && (await deps.channels.isRunning(connectionId)))
    await deps.outbox.flush(deps, connectionId);
}
