import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import type { ConnectionCommands } from "./commands";
import { KeyedLanes } from "../shared/lanes";
import type { ConnectionLeases } from "./leases";
import { waAuthCreds } from "../db/tables";
import { AppError, notFound } from "../errors";
import type { Logger } from "../log";
import type { ErrorCode } from "../shared/error-codes";
import type {
  ChannelDriver,
  ChannelSink,
  Channels,
  ConnectionRecords,
  ConnectionStatus,
  DeleteRef,
  InboundSink,
  MessageTemplate,
  OutgoingMedia,
  OwnPresence,
  Provider,
  ReactionTarget,
  SendOptions,
  StatusInfo,
  ReadRef,
  CheckedTemplate,
} from "./types";

export interface ManagerDeps {
  /** Only for the drivers' own credentials table (`wa_auth_creds`). */
  db: Db;
  /** The connections themselves: which exist, their status. */
  records: ConnectionRecords;
  log: Logger;
  /** When nodes share the database: a connection runs on the node holding its lease. */
  leases?: ConnectionLeases;
  /** With leases: what this node asks of connections other nodes run, and what they ask of this node's. */
  commands?: ConnectionCommands;
}

/**
 * Owns every connection's lifecycle (see types.ts). Lifecycle operations on one connection run one after the
 * other; a start requested while another start runs joins it. Drivers report statuses, the manager hands them
 * to the connection records (which store and announce them) and tells its `onConnected` listeners.
 */
export class ConnectionManager implements Channels {
  private readonly drivers = new Map<Provider, ChannelDriver>();
  /** Lifecycle operations of one connection, one after the other. */
  private readonly lifecycle = new KeyedLanes<number>();
  private readonly starting = new Map<number, Promise<void>>();
  /**
   * Status writes of one connection, stored in the order reported: drivers report without waiting for the write
   * before, and on PostgreSQL a write can end after a later one (a pairing's PAIRING after its CONNECTED).
   */
  private readonly statusWrites = new KeyedLanes<number>();
  private inbound?: InboundSink;
  private readonly connectedListeners = new Set<(connectionId: number) => void>();
  private takenHere?: (connectionId: number) => Promise<void>;
  private readonly sink: ChannelSink;

  constructor(private readonly deps: ManagerDeps) {
    this.sink = {
      onStatus: async (id, status, info) => await this.persistStatus(id, status, info),
      onMessage: async (id, m) => this.inbound?.onMessage(id, m),
      wantsMedia: async (id, wid) => (await this.inbound?.wantsMedia(id, wid)) ?? false,
      onMedia: async (id, wid, outcome) => this.inbound?.onMedia(id, wid, outcome),
      onAck: async (id, wid, ack) => await this.inbound?.onAck(id, wid, ack),
      onRevoked: async (id, wid) => await this.inbound?.onRevoked(id, wid),
      onEdit: async (id, edit) => await this.inbound?.onEdit(id, edit),
      onReaction: async (id, reaction) => await this.inbound?.onReaction(id, reaction),
      onCall: async (id, c) => this.inbound?.onCall(id, c),
      onContacts: async (id, list) => await this.inbound?.onContacts(id, list),
      onSendRejected: async (id, wid, reason) => await this.inbound?.onSendRejected(id, wid, reason),
      onPresence: async (id, presence) => await this.inbound?.onPresence(id, presence),
      onHistory: async (id, list) => this.inbound?.onHistory?.(id, list),
    };
    deps.commands
      ?.handle("restart", (id) => this.start(id))
      .handle("disconnect", (id) => this.disconnectHere(id))
      .handle("newQr", (id) => this.newQrHere(id));
  }

  /** Registers the driver of one provider kind. */
  register(driver: ChannelDriver): this {
    this.drivers.set(driver.kind, driver);
    return this;
  }

  /** Connects the inbound pipeline (built after the manager, since it needs `deps.channels`). */
  setInbound(sink: InboundSink) {
    this.inbound = sink;
  }

  /** Calls `listener` each time a connection reports CONNECTED (after the status is stored); returns an unsubscribe. */
  onConnected(listener: (connectionId: number) => void): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  /**
   * Sets what runs when this process starts a connection it was not running (at boot, after a stop, or taking
   * it over from another node), once it holds the lease and before its session opens.
   */
  onTakenHere(handler: (connectionId: number) => Promise<void>) {
    this.takenHere = handler;
  }

  /** The sink drivers report to (statuses to the connection records, everything else to the inbound sink). */
  get driverSink(): ChannelSink {
    return this.sink;
  }

  start(connectionId: number): Promise<void> {
    const running = this.starting.get(connectionId);
    if (running) return running;
    const job = this.lifecycle
      .run(connectionId, () => this.doStart(connectionId))
      .finally(() => this.starting.delete(connectionId));
    this.starting.set(connectionId, job);
    // Commands other nodes stored while no node ran it (or the one that did went away) are carried out now.
    void job.then(() => this.runCommands(connectionId)).catch(() => undefined);
    return job;
  }

  /** "Try again": restarts the connection on the node running it, or here when no node does. */
  async restart(connectionId: number): Promise<void> {
    if (!(await this.postToRunner(connectionId, "restart"))) await this.start(connectionId);
  }

  /** Stops the connection here; another node sharing the database may take it over at once. */
  stop(connectionId: number): Promise<void> {
    return this.lifecycle.run(connectionId, async () => {
      await this.stopDriver(connectionId);
      await this.deps.leases?.release(connectionId);
    });
  }

  /** The connections that should run somewhere: every one not deliberately disconnected. */
  wanted(): Promise<number[]> {
    return this.deps.records.idsToStart();
  }

  isRunningHere(connectionId: number): Promise<boolean> {
    return this.isRunning(connectionId);
  }

  /** Stops the connection's socket here, its lease left as it is (already another node's). */
  stopHere(connectionId: number): Promise<void> {
    return this.lifecycle.run(connectionId, () => this.stopDriver(connectionId));
  }

  private async stopDriver(connectionId: number) {
    const driver = await this.driverOf(connectionId);
    if (driver?.isRunning(connectionId)) await driver.stop(connectionId);
  }

  /** Logs the session out, on the node that runs it. */
  async disconnect(connectionId: number): Promise<void> {
    if (!(await this.postToRunner(connectionId, "disconnect"))) await this.disconnectHere(connectionId);
  }

  private disconnectHere(connectionId: number): Promise<void> {
    return this.lifecycle.run(connectionId, async () => {
      const driver = await this.driverOf(connectionId);
      if (!driver?.isRunning(connectionId)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      await this.deps.records.forgetPhonebook(connectionId);
      await driver.logout(connectionId);
      await this.persistStatus(connectionId, "DISCONNECTED", { qr: "", number: "" });
      await this.deps.leases?.release(connectionId);
    });
  }

  /** Wipes the pairing and starts again for a new QR code, on the node that runs the connection. */
  async newQr(connectionId: number): Promise<void> {
    if (!(await this.postToRunner(connectionId, "newQr"))) await this.newQrHere(connectionId);
  }

  private async newQrHere(connectionId: number): Promise<void> {
    await this.lifecycle.run(connectionId, async () => {
      const driver = await this.driverOf(connectionId);
      if (!driver) throw notFound("ERR_NO_WAPP_FOUND");
      await this.deps.records.forgetPhonebook(connectionId);
      await this.deps.db.delete(waAuthCreds).where(eq(waAuthCreds.whatsappId, connectionId));
      // The credentials are already wiped; a logout that cannot reach the network changes nothing more.
      await driver
        .logout(connectionId)
        .catch((error) => this.deps.log.warn("logout before new QR failed", { whatsappId: connectionId, error }));
    });
    await this.start(connectionId);
  }

  /** Starts every connection in parallel (boot). A failing one is logged and left as reported. */
  async startAll(): Promise<void> {
    await Promise.all(
      (await this.deps.records.idsToStart()).map((id) =>
        this.start(id).catch((error) => this.deps.log.error("connection start failed", { whatsappId: id, error })),
      ),
    );
  }

  /** Stops and starts every connection this node runs, and asks the other nodes to restart theirs. */
  async restartAll(): Promise<void> {
    await this.stopAll();
    await Promise.all(
      (await this.deps.records.idsToStart()).map((id) =>
        this.restart(id).catch((error) => this.deps.log.error("connection start failed", { whatsappId: id, error })),
      ),
    );
  }

  /**
   * Runs `here` when this node runs the connection. Otherwise, when nodes share the database and the connection
   * should run, stores the command for the node that runs it, or will: one whose node died is taken over within a
   * lease. Alone, or for a connection nobody should run, `here` runs (and refuses as it does).
   */
  async onRunner(connectionId: number, kind: string, payload: unknown, here: () => Promise<unknown>): Promise<void> {
    const { leases, commands } = this.deps;
    const elsewhere =
      leases && commands && !(await this.isRunning(connectionId)) && (await this.deps.records.shouldRun(connectionId));
    if (!elsewhere) return void (await here());
    await commands.post(connectionId, kind, payload);
    // Posted by the node that just started running it, after it looked: it carries it out itself.
    if (await this.isRunning(connectionId)) await this.runCommands(connectionId);
  }

  /** Carries out the commands other nodes stored for the connection, when this node runs it. */
  async runCommands(connectionId: number): Promise<void> {
    if (this.deps.commands && (await this.isRunning(connectionId)))
      await this.deps.commands.drain(connectionId, () => this.isRunning(connectionId));
  }

  /** When another node runs the connection: stores the command for it and returns true. */
  private async postToRunner(connectionId: number, kind: string): Promise<boolean> {
    const { leases, commands } = this.deps;
    if (!leases || !commands || (await this.isRunning(connectionId))) return false;
    const holder = await leases.holder(connectionId);
    if (holder === undefined || holder === leases.nodeId) return false;
    await commands.post(connectionId, kind);
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      (await this.deps.records.ids()).map((id) =>
        this.stop(id).catch((error) => this.deps.log.warn("connection stop failed", { whatsappId: id, error })),
      ),
    );
  }

  async isRunning(connectionId: number): Promise<boolean> {
    return (await (await this.driverOf(connectionId))?.isRunning(connectionId)) ?? false;
  }

  providerOf(connectionId: number): Promise<Provider | undefined> {
    return this.deps.records.providerOf(connectionId);
  }

  /** Works while the connection is down too, so a message can be stored under its final id before it is sent. */
  async newMessageId(connectionId: number): Promise<string> {
    const driver = await this.driverOf(connectionId);
    if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return driver.newMessageId(connectionId);
  }

  sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", (d) => d.sendText(connectionId, to, isGroup, body, options));
  }

  sendMedia(connectionId: number, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", (d) =>
      d.sendMedia(connectionId, to, isGroup, media, options),
    );
  }

  markRead(connectionId: number, chatId: string, isGroup: boolean, messages: ReadRef[]) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", (d) => d.markRead(connectionId, chatId, isGroup, messages));
  }

  deleteForEveryone(connectionId: number, ref: DeleteRef) {
    return this.call(connectionId, "ERR_DELETE_WAPP_MSG", (d) => d.deleteForEveryone(connectionId, ref));
  }

  checkNumber(connectionId: number, phone: string) {
    return this.call(connectionId, "ERR_WAPP_CHECK_CONTACT", (d) => d.checkNumber(connectionId, phone));
  }

  profilePictureUrl(connectionId: number, chatId: string, isGroup: boolean) {
    return this.call(connectionId, "ERR_WAPP_NOT_INITIALIZED", (d) =>
      d.profilePictureUrl(connectionId, chatId, isGroup),
    );
  }

  /** Rejects a ringing call (used by the calls rule). */
  rejectCall(connectionId: number, callId: string, from: string) {
    return this.call(connectionId, "ERR_WAPP_NOT_INITIALIZED", (d) => d.rejectCall(connectionId, callId, from));
  }

  sendPresence(connectionId: number, chatId: string, isGroup: boolean, state: OwnPresence) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", (d) => d.sendPresence(connectionId, chatId, isGroup, state));
  }

  subscribePresence(connectionId: number, chatId: string, isGroup: boolean) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", (d) => d.subscribePresence(connectionId, chatId, isGroup));
  }

  sendReaction(connectionId: number, chatId: string, isGroup: boolean, target: ReactionTarget, emoji: string) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", (d) =>
      d.sendReaction(connectionId, chatId, isGroup, target, emoji),
    );
  }

  async templates(connectionId: number): Promise<MessageTemplate[]> {
    return await this.call(
      connectionId,
      "ERR_WAPP_NOT_INITIALIZED",
      async (d) => (await d.templates?.(connectionId)) ?? [],
    );
  }

  sendTemplate(connectionId: number, to: string, isGroup: boolean, template: CheckedTemplate, options: SendOptions) {
    return this.call(connectionId, "ERR_SENDING_WAPP_MSG", async (d) => {
      if (!d.sendTemplate) throw new Error(`${d.kind} connections send no templates`);
      await d.sendTemplate(connectionId, to, isGroup, template, options);
    });
  }

  private async doStart(connectionId: number) {
    const connection = await this.deps.records.load(connectionId);
    if (!connection) throw notFound("ERR_NO_WAPP_FOUND");
    const driver = this.drivers.get(connection.provider);
    if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    if (this.deps.leases && !(await this.deps.leases.claim(connectionId))) {
      this.deps.log.info("connection runs on another node", { whatsappId: connectionId });
      return;
    }
    if (await driver.isRunning(connectionId)) await driver.stop(connectionId);
    else await this.takenHere?.(connectionId);
    await this.persistStatus(connectionId, "OPENING");
    try {
      await driver.start(connection, this.sink);
    } catch (error) {
      this.deps.log.error("connection start failed", { whatsappId: connectionId, error });
      await this.persistStatus(connectionId, "DISCONNECTED", { qr: "", reason: "start failed" });
      await this.deps.leases?.release(connectionId);
      throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    }
  }

  private persistStatus(connectionId: number, status: ConnectionStatus, info: StatusInfo = {}): Promise<void> {
    return this.statusWrites.run(connectionId, () => this.storeStatus(connectionId, status, info));
  }

  private async storeStatus(connectionId: number, status: ConnectionStatus, info: StatusInfo) {
    // What the phone shared belongs to the pairing that just ended.
    if (info.unpaired) await this.deps.records.forgetPhonebook(connectionId);
    if (!(await this.deps.records.saveStatus(connectionId, status, info))) return;
    if (status !== "CONNECTED") return;
    for (const listener of this.connectedListeners) {
      try {
        listener(connectionId);
      } catch (error) {
        this.deps.log.error("connected listener failed", { whatsappId: connectionId, error });
      }
    }
  }

  private async driverOf(connectionId: number): Promise<ChannelDriver | undefined> {
    const provider = await this.providerOf(connectionId);
    return provider ? this.drivers.get(provider) : undefined;
  }

  private async running(connectionId: number): Promise<ChannelDriver> {
    const driver = await this.driverOf(connectionId);
    if (!driver?.isRunning(connectionId)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return driver;
  }

  private async call<T>(connectionId: number, code: ErrorCode, fn: (driver: ChannelDriver) => Promise<T>): Promise<T> {
    const driver = await this.running(connectionId);
    try {
      return await fn(driver);
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.deps.log.warn("channel operation failed", { whatsappId: connectionId, code, error });
      throw new AppError(code);
    }
  }
}
