import makeWASocket, {
  Browsers,
  DisconnectReason,
  generateMessageIDV2,
  isLidUser,
  toNumber,
  type AnyMessageContent,
  type BaileysEventMap,
  type MiscMessageGenerationOptions,
  type WAMessage,
  type WASocket,
} from "baileys";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Logger } from "../../log";
import { makePrivateDir } from "../../private-files";
import { lidOfAddress } from "../../shared/address";
import type { ChannelDriver, ChannelSink, ConnectionRef, DeleteRef, OutgoingMedia, SendOptions } from "../types";
import { cachedKeyStore, useSqliteAuthState, type SqliteAuthState } from "./auth-store";
import { TtlCache } from "./cache";
import { DownloadPool } from "./download-pool";
import { GroupMetadataCache } from "./group-cache";
import { historyOf } from "./history";
import { Inbox } from "./inbox";
import { InboundJournal, journalEvents } from "./journal";
import { isIgnoredJid, jidUser, quotedFromRaw, type LidToPn } from "./map";
import { downloadMedia, removePartialDownloads } from "./media";
import { holdBeforeReceipts } from "./receipt-guard";
import { closeAction, DEFAULT_BACKOFF, type BackoffOptions } from "./reconnect";
import { SentMessageStore } from "./sent-store";
import { formatVersion, resolveWaVersion, type FetchLatestVersion, type WaVersion } from "./version";

type ILogger = NonNullable<Parameters<typeof makeWASocket>[0]["logger"]>;

/** QR codes shown per start before giving up. */
const MAX_QR = 3;
/** A message's retry count is remembered for an hour, as Baileys does by default. */
const RETRY_COUNT_TTL = 3600_000;
const RETRY_COUNT_MAX = 10_000;

/** Runs `fn` after `ms` milliseconds; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

const realTimer: SetTimer = (fn, ms) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

export interface BaileysDriverOptions {
  db: Db;
  mediaDir: string;
  log: Logger;
  /** Test-only: a local fake server instead of WhatsApp Web. */
  waWebSocketUrl?: string;
  /** The WhatsApp Web version to present (WA_VERSION); otherwise the latest published is read once at first start. */
  version?: WaVersion;
  /** How the latest published version is read (default: from web.whatsapp.com); false uses Baileys' bundled one. */
  fetchLatestVersion?: FetchLatestVersion | false;
  backoff?: Partial<BackoffOptions>;
  /** Per media download attempt (and re-upload request) time limit. */
  mediaTimeoutMs?: number;
  /** Media downloads running at once, over all connections (default 3). */
  mediaConcurrency?: number;
  /** How long a stop waits for the inbound events already being handled (default 8 s). */
  drainTimeoutMs?: number;
  /** Inbound media larger than this is neither downloaded past it nor stored (MAX_MEDIA_MB; default 64 MB). */
  maxMediaBytes?: number;
  /** Extra socket config (tests: qrTimeout, connectTimeoutMs…). */
  socketConfig?: Partial<Parameters<typeof makeWASocket>[0]>;
  /** Schedules reconnect attempts (default setTimeout); tests pass a virtual clock. */
  setTimer?: SetTimer;
  /** Epoch milliseconds (default Date.now). */
  now?: () => number;
}

interface Session {
  conn: ConnectionRef;
  sink: ChannelSink;
  gen: number;
  sock: WASocket;
  auth: SqliteAuthState;
  groups: GroupMetadataCache;
  qrCount: number;
  /** Consecutive failed attempts; `downSince` = when the first of them closed. */
  failures: number;
  downSince?: number;
  pairing: boolean;
  closed: boolean;
  cancelTimer?: () => void;
  calls: Map<string, string>;
  firstQr: Promise<void>;
  qrSeen: () => void;
}

/** The real WhatsApp Web driver (Baileys 7): one socket per connection, auth in SQLite. */
export class BaileysDriver implements ChannelDriver {
  readonly kind = "baileys" as const;
  private sessions = new Map<number, Session>();
  private generation = 0;
  private backoff: BackoffOptions;
  private baileysLog: ILogger;
  private mediaTimeoutMs: number;
  private maxMediaBytes: number;
  private setTimer: SetTimer;
  private now: () => number;
  private sent: SentMessageStore;
  private journal: InboundJournal;
  private downloads: DownloadPool;
  private drainTimeoutMs: number;
  /** Per connection and kept across sockets: the journaled inbound events on their way to the sink. */
  private inboxes = new Map<number, Inbox>();
  /** Per connection and kept across sockets, so a reconnect cannot restart a message's retry count at zero. */
  private retryCounts = new Map<number, TtlCache>();
  private versionQuery?: Promise<WaVersion>;
  private version?: WaVersion;

  constructor(private opts: BaileysDriverOptions) {
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.setTimer = opts.setTimer ?? realTimer;
    this.now = opts.now ?? Date.now;
    this.sent = new SentMessageStore(opts.db, this.now);
    this.mediaTimeoutMs = opts.mediaTimeoutMs ?? 30_000;
    this.maxMediaBytes = opts.maxMediaBytes ?? 64 * 1024 * 1024;
    this.journal = new InboundJournal(opts.db);
    this.downloads = new DownloadPool(opts.mediaConcurrency ?? 3);
    this.drainTimeoutMs = opts.drainTimeoutMs ?? 8000;
    this.baileysLog = bridgeLogger(opts.log, { component: "baileys" });
    makePrivateDir(opts.mediaDir);
    removePartialDownloads(opts.mediaDir);
  }

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    this.versionQuery ??= resolveWaVersion({
      pinned: this.opts.version,
      fetchLatest: this.opts.fetchLatestVersion,
      log: this.opts.log,
    });
    this.version = await this.versionQuery;
    const old = this.sessions.get(connection.id);
    if (old) await this.close(old);
    this.open(connection, sink, { failures: 0 });
    // After the socket exists (LIDs are looked up through it) and before it can deliver anything new.
    this.inboxOf(connection.id).start(sink);
  }

  /** Finishes handling what was received (new events stay journaled for the next start), then ends the socket. */
  async stop(connectionId: number): Promise<void> {
    await this.inboxes.get(connectionId)?.drain(this.drainTimeoutMs);
    const s = this.sessions.get(connectionId);
    if (s) await this.close(s);
  }

  async logout(connectionId: number): Promise<void> {
    const s = this.sessions.get(connectionId);
    this.retryCounts.delete(connectionId);
    if (!s) {
      useSqliteAuthState(this.opts.db, connectionId).wipe();
      return;
    }
    this.detach(s);
    try {
      await s.sock.logout();
    } catch (error) {
      this.opts.log.warn("baileys logout failed; wiping anyway", { whatsappId: connectionId, error });
      await s.sock.end(undefined).catch(() => undefined);
    }
    s.auth.wipe();
    s.sink.onStatus(connectionId, "DISCONNECTED", { qr: "", number: "" });
  }

  isRunning(connectionId: number): boolean {
    return this.sessions.has(connectionId);
  }

  newMessageId(connectionId: number): string {
    return generateMessageIDV2(this.sessions.get(connectionId)?.sock.user?.id);
  }

  async sendText(
    connectionId: number,
    to: string,
    isGroup: boolean,
    body: string,
    options: SendOptions,
  ): Promise<void> {
    const s = this.session(connectionId);
    const jid = toJid(to, isGroup);
    await this.send(s, jid, { text: body }, this.sendOptions(jid, options));
  }

  async sendMedia(
    connectionId: number,
    to: string,
    isGroup: boolean,
    media: OutgoingMedia,
    options: SendOptions,
  ): Promise<void> {
    const s = this.session(connectionId);
    const jid = toJid(to, isGroup);
    await this.send(s, jid, mediaContent(media), this.sendOptions(jid, options));
  }

  async markRead(connectionId: number, chatId: string, isGroup: boolean, messageIds: string[]): Promise<void> {
    if (!messageIds.length) return;
    const s = this.session(connectionId);
    const jid = toJid(chatId, isGroup);
    await s.sock.readMessages(messageIds.map((id) => ({ remoteJid: jid, id, fromMe: false })));
  }

  async deleteForEveryone(connectionId: number, ref: DeleteRef): Promise<void> {
    const s = this.session(connectionId);
    const jid = toJid(ref.chatId, ref.isGroup);
    await this.send(s, jid, {
      delete: {
        remoteJid: jid,
        fromMe: ref.fromMe,
        id: ref.id,
        ...(ref.participant ? { participant: ref.participant } : {}),
      },
    });
  }

  async checkNumber(connectionId: number, phone: string): Promise<string | null> {
    const s = this.session(connectionId);
    const digits = phone.replace(/\D/g, "");
    if (!digits) return null;
    const [hit] = (await s.sock.onWhatsApp(digits)) ?? [];
    return hit?.exists ? (jidUser(hit.jid) ?? null) : null;
  }

  async profilePictureUrl(connectionId: number, chatId: string, isGroup: boolean): Promise<string | null> {
    const s = this.session(connectionId);
    try {
      return (await s.sock.profilePictureUrl(toJid(chatId, isGroup), "image")) ?? null;
    } catch {
      // Privacy settings or no picture: WhatsApp answers 401/404.
      return null;
    }
  }

  async rejectCall(connectionId: number, callId: string, from: string): Promise<void> {
    const s = this.session(connectionId);
    await s.sock.rejectCall(callId, s.calls.get(callId) ?? toJid(from, false));
  }

  async requestPairingCode(connectionId: number, phone: string): Promise<string> {
    const s = this.session(connectionId);
    if (s.auth.state.creds.account) throw new Error(`baileys connection ${connectionId} is already paired`);
    // Baileys needs the pairing registration the first QR brings.
    await Promise.race([s.firstQr, Bun.sleep(30_000)]);
    s.pairing = true;
    const code = await s.sock.requestPairingCode(phone.replace(/\D/g, ""));
    s.sink.onStatus(connectionId, "PAIRING", { qr: "" });
    return code;
  }

  private session(connectionId: number): Session {
    const s = this.sessions.get(connectionId);
    if (!s) throw new Error(`baileys connection ${connectionId} is not running`);
    return s;
  }

  /**
   * Sends and keeps the content for later retry receipts. The content (with its media keys and message secret)
   * only exists once Baileys generated it; until this socket closes Baileys answers retries from its own cache.
   */
  private async send(s: Session, jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions) {
    let sent: WAMessage | undefined;
    try {
      sent = await s.sock.sendMessage(jid, content, options);
    } catch (error) {
      // The socket closed or stopped answering: the send is worth trying again once the connection is back.
      if (linkDown(s, error)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      throw error;
    }
    if (!sent?.key.id || !sent.message) return;
    try {
      this.sent.save(s.conn.id, sent.key.id, sent.message);
    } catch (error) {
      // The message is out; failing the send now would only make the agent send it twice.
      this.opts.log.error("baileys sent content not stored", { whatsappId: s.conn.id, messageId: sent.key.id, error });
    }
  }

  private sendOptions(jid: string, options: SendOptions): MiscMessageGenerationOptions {
    const out: MiscMessageGenerationOptions = { messageId: options.messageId };
    const q = options.quoted;
    if (q) {
      const key = { id: q.id, remoteJid: q.remoteJid ?? jid, fromMe: q.fromMe, participant: q.participant };
      out.quoted = q.raw
        ? quotedFromRaw(q.raw, key)
        : { key: { ...key, participant: key.participant ?? undefined }, message: { conversation: q.body ?? "" } };
    }
    return out;
  }

  /** Creates a socket for the connection; `carry` is the outage so far (from the previous attempt). */
  private open(conn: ConnectionRef, sink: ChannelSink, carry: Pick<Session, "failures" | "downSince">) {
    const auth = useSqliteAuthState(this.opts.db, conn.id);
    const gen = ++this.generation;
    let qrSeen = () => {};
    const firstQr = new Promise<void>((resolve) => (qrSeen = resolve));
    const logger = this.baileysLog.child({ whatsappId: conn.id });
    const groups = new GroupMetadataCache((jid) => sock.groupMetadata(jid));
    const sock = makeWASocket({
      auth: { creds: auth.state.creds, keys: cachedKeyStore(auth.state.keys, logger, this.now) },
      logger,
      browser: Browsers.ubuntu("Chrome"),
      markOnlineOnConnect: false,
      // Asked for at pairing only: the phone then sends older chats too, which the import needs.
      syncFullHistory: !!conn.historyDays,
      ...(conn.historyDays ? { shouldSyncHistoryMessage: () => true } : {}),
      shouldIgnoreJid: (jid) => isIgnoredJid(jid),
      getMessage: async (key) => (key.id ? this.sent.get(conn.id, key.id) : undefined),
      msgRetryCounterCache: this.retryCountsOf(conn.id),
      cachedGroupMetadata: (jid) => groups.get(jid),
      ...(this.opts.waWebSocketUrl ? { waWebSocketUrl: this.opts.waWebSocketUrl } : {}),
      ...(this.version ? { version: this.version } : {}),
      ...this.opts.socketConfig,
    });
    const s: Session = {
      conn,
      sink,
      gen,
      sock,
      auth,
      groups,
      qrCount: 0,
      ...carry,
      pairing: false,
      closed: false,
      calls: new Map(),
      firstQr,
      qrSeen,
    };
    this.sessions.set(conn.id, s);
    sink.onStatus(conn.id, "OPENING");
    const inbox = this.inboxOf(conn.id);
    inbox.lidMapping = sock.signalRepository.lidMapping;
    holdBeforeReceipts(sock, (message, type) => inbox.hold(message, type), this.opts.log);
    sock.ev.process((events) => this.receive(s, events));
  }

  private inboxOf(connectionId: number): Inbox {
    let inbox = this.inboxes.get(connectionId);
    if (inbox) return inbox;
    inbox = new Inbox({
      connectionId,
      journal: this.journal,
      downloads: this.downloads,
      maxMediaBytes: this.maxMediaBytes,
      log: this.opts.log,
      download: (m, signal) =>
        downloadMedia(m, signal, {
          mediaDir: this.opts.mediaDir,
          maxBytes: this.maxMediaBytes,
          timeoutMs: this.mediaTimeoutMs,
          log: this.opts.log,
          whatsappId: connectionId,
          reupload: (msg) => {
            const s = this.sessions.get(connectionId);
            return s ? s.sock.updateMediaMessage(msg) : Promise.reject(new Error("not connected"));
          },
        }),
    });
    this.inboxes.set(connectionId, inbox);
    return inbox;
  }

  private retryCountsOf(connectionId: number) {
    let cache = this.retryCounts.get(connectionId);
    if (!cache) this.retryCounts.set(connectionId, (cache = new TtlCache(RETRY_COUNT_TTL, RETRY_COUNT_MAX, this.now)));
    return cache;
  }

  private isCurrent(s: Session) {
    return !s.closed && this.sessions.get(s.conn.id)?.gen === s.gen;
  }

  /** Stops handling a session's events and forgets it (without closing the socket). */
  private detach(s: Session) {
    s.closed = true;
    s.cancelTimer?.();
    if (this.sessions.get(s.conn.id)?.gen === s.gen) this.sessions.delete(s.conn.id);
    this.inboxes.get(s.conn.id)?.releaseHeld();
  }

  private async close(s: Session) {
    this.detach(s);
    await s.sock.end(undefined).catch(() => undefined);
  }

  /**
   * Takes one batch of events inside Baileys' own emit: credentials, connection changes and group caches at
   * once, and everything that becomes or changes a stored message journaled before this returns (bun:sqlite is
   * synchronous), then handled by the connection's inbox. Nothing here waits for a message to be handled.
   */
  private receive(s: Session, events: Partial<BaileysEventMap>) {
    const id = s.conn.id;
    try {
      if (this.isCurrent(s)) {
        if (events["creds.update"]) s.auth.saveCreds();
        const update = events["connection.update"];
        if (update)
          void this.onConnection(s, update).catch((error) =>
            this.opts.log.error("baileys connection update failed", { whatsappId: id, error }),
          );
        if (events["groups.upsert"]) s.groups.upsert(events["groups.upsert"]);
        if (events["groups.update"]) s.groups.update(events["groups.update"]);
        if (events["group-participants.update"]) s.groups.participants(events["group-participants.update"]);
      }
      for (const c of events.call ?? []) {
        s.calls.set(c.id, c.from);
        if (s.calls.size > 500) s.calls.delete(s.calls.keys().next().value!);
      }
      const history = events["messaging-history.set"];
      if (history && this.isCurrent(s))
        void this.reportHistory(s, history).catch((error) =>
          this.opts.log.error("history import failed", { whatsappId: id, error }),
        );
      const journaled = journalEvents(events);
      // Events of an older socket of the connection were received all the same: they are kept too.
      if (journaled.length) this.inboxOf(id).receive(journaled);
    } catch (error) {
      this.opts.log.error("baileys events not taken", { whatsappId: id, error });
    }
  }

  /**
   * The chat history the phone sends after pairing, when the connection imports it. Its LID↔phone pairs need
   * nothing here: Baileys stores them before this event, and its chats come as contacts too. Media is not
   * downloaded: a history holds days of it. History is not journaled: WhatsApp sends it once, at pairing, and a
   * crash during the import loses only what was not imported yet (New QR asks for it again).
   */
  private async reportHistory(s: Session, history: BaileysEventMap["messaging-history.set"]) {
    const days = s.conn.historyDays;
    if (!days) return;
    const since = this.now() - days * 86_400_000;
    const recent = history.messages.filter((m) => toNumber(m.messageTimestamp ?? 0) * 1000 >= since);
    if (!recent.length) return;
    const lidToPn = await this.lidResolver(
      s,
      recent.flatMap((m) => [m.key.remoteJid, m.key.participant]),
    );
    const messages = historyOf(recent, lidToPn);
    if (messages.length) await s.sink.onHistory?.(s.conn.id, messages);
  }

  /** Looks up phone jids for the LIDs among `jids` that Baileys already knows. */
  private async lidResolver(s: Session, jids: (string | null | undefined)[]): Promise<LidToPn> {
    const lids = [...new Set(jids.filter((j): j is string => !!j && !!isLidUser(j)))];
    const found = new Map<string, string>();
    for (const lid of lids) {
      const pn = await s.sock.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
      if (pn) found.set(lid, pn);
    }
    return (lid) => found.get(lid);
  }

  private async onConnection(s: Session, update: BaileysEventMap["connection.update"]) {
    const id = s.conn.id;
    if (update.qr && !s.pairing) {
      s.qrCount++;
      s.qrSeen();
      if (s.qrCount > MAX_QR) {
        await this.close(s);
        s.auth.wipe();
        s.sink.onStatus(id, "DISCONNECTED", { qr: "", reason: "QR code not scanned" });
        return;
      }
      s.sink.onStatus(id, "qrcode", { qr: update.qr, retries: 0 });
    } else if (update.qr) {
      s.qrSeen();
    }
    if (update.isNewLogin) s.sink.onStatus(id, "PAIRING", { qr: "" });
    if (update.connection === "open") {
      if (s.failures > 0) {
        const downForS = s.downSince === undefined ? undefined : Math.round((this.now() - s.downSince) / 1000);
        this.opts.log.info("baileys connection back", { whatsappId: id, attempts: s.failures, downForS });
      }
      s.failures = 0;
      s.downSince = undefined;
      s.qrCount = 0;
      s.sink.onStatus(id, "CONNECTED", { qr: "", number: jidUser(s.sock.user?.id) ?? "", retries: 0 });
    }
    if (update.connection === "close") {
      const error = update.lastDisconnect?.error as { output?: { statusCode?: number }; message?: string } | undefined;
      const code = error?.output?.statusCode;
      const action = closeAction(code, error?.message, s.failures, this.backoff);
      this.detach(s);
      if (action.kind === "restart") {
        this.opts.log.info("baileys connection restarting", { whatsappId: id, code });
        this.open(s.conn, s.sink, { failures: s.failures, downSince: s.downSince });
      } else if (action.kind === "disconnect") {
        const detail = { whatsappId: id, code, reason: action.reason };
        if (code === 405) {
          this.opts.log.error("baileys connection ended", {
            ...detail,
            version: this.version && formatVersion(this.version),
          });
          // Unless WA_VERSION pins it, the next start reads the latest published version again.
          this.versionQuery = undefined;
        } else this.opts.log.warn("baileys connection ended", detail);
        if (action.wipe) s.auth.wipe();
        s.sink.onStatus(id, "DISCONNECTED", {
          ...(action.clearQr ? { qr: "" } : {}),
          reason: action.reason,
          retries: s.failures,
        });
      } else {
        const downSince = s.downSince ?? this.now();
        this.opts.log.info("baileys connection lost; reconnecting", {
          whatsappId: id,
          code,
          attempt: action.attempt,
          delayMs: action.delayMs,
        });
        s.sink.onStatus(id, "TIMEOUT", { retries: action.attempt });
        // A placeholder keeps isRunning true and lets stop() cancel the pending reconnect.
        const waiting: Session = { ...s, closed: false, gen: ++this.generation, failures: action.attempt, downSince };
        waiting.cancelTimer = this.setTimer(() => {
          if (this.isCurrent(waiting)) this.open(s.conn, s.sink, { failures: action.attempt, downSince });
        }, action.delayMs);
        this.sessions.set(id, waiting);
      }
    }
  }
}

/** A send failed because the socket is closed or a query to the server timed out, not because of the message. */
function linkDown(s: Session, error: unknown): boolean {
  const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
  return !s.sock.ws.isOpen || code === DisconnectReason.connectionClosed || code === DisconnectReason.timedOut;
}

function toJid(to: string, isGroup: boolean) {
  if (isGroup) return `${to}@g.us`;
  const lid = lidOfAddress(to);
  return lid ? `${lid}@lid` : `${to.replace(/\D/g, "")}@s.whatsapp.net`;
}

function mediaContent(media: OutgoingMedia): AnyMessageContent {
  const source = { url: media.path };
  const major = media.mimetype.split("/")[0];
  if (major === "image") return { image: source, mimetype: media.mimetype, caption: media.caption };
  if (major === "video") return { video: source, mimetype: media.mimetype, caption: media.caption };
  if (major === "audio") return { audio: source, mimetype: media.mimetype, ptt: !!media.ptt };
  return { document: source, mimetype: media.mimetype, fileName: media.fileName, caption: media.caption };
}

/** A pino-compatible logger that forwards Baileys' warnings and errors to ours. */
function bridgeLogger(log: Logger, bindings: Record<string, unknown>): ILogger {
  const data = (obj: unknown) => ({
    ...bindings,
    ...(obj && typeof obj === "object" ? (obj as Record<string, unknown>) : { detail: obj }),
  });
  const text = (obj: unknown, msg?: string) => msg ?? (typeof obj === "string" ? obj : "baileys");
  return {
    level: "warn",
    child: (obj) => bridgeLogger(log, { ...bindings, ...obj }),
    trace: () => {},
    debug: () => {},
    info: () => {},
    warn: (obj, msg) => log.warn(text(obj, msg), data(obj)),
    error: (obj, msg) => log.error(text(obj, msg), data(obj)),
  };
}
