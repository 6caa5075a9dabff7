import makeWASocket, { Browsers, type BaileysEventMap } from "baileys";
import type { Db } from "../../db/client";
import type { Logger } from "../../log";
import type { ChannelSink, ConnectionRef } from "../types";
import { cachedKeyStore, useSqliteAuthState } from "./auth-store";
import { TtlCache } from "./cache";
import { takeEvents } from "./events";
import { GroupMetadataCache } from "./group-cache";
import type { Inbox } from "./inbox";
import { isIgnoredJid, jidUser } from "./jid";
import { type BaileysLogger, bridgeLogger } from "./logger";
import { holdBeforeReceipts } from "./receipt-guard";
import { lookUpSendersEarly } from "./sender-lids";
import { type BackoffOptions, closeAction } from "./reconnect";
import { handleMessagesInArrivalOrder } from "./arrival-order";
import type { SentMessageStore } from "./sent-store";
import { KeyedLanes } from "../../shared/lanes";
import type { Session, SetTimer } from "./session";
import { type FetchLatestVersion, formatVersion, resolveWaVersion, type WaVersion } from "./version";

/** QR codes shown per start before giving up. */
const MAX_QR = 3;
/** A message's retry count is remembered for an hour, as Baileys does by default. */
const RETRY_COUNT_TTL = 3600_000;
const RETRY_COUNT_MAX = 10_000;

export interface SocketsOptions {
  db: Db;
  log: Logger;
  waWebSocketUrl?: string;
  version?: WaVersion;
  fetchLatestVersion?: FetchLatestVersion | false;
  socketConfig?: Partial<Parameters<typeof makeWASocket>[0]>;
  backoff: BackoffOptions;
  setTimer: SetTimer;
  now: () => number;
  /** The contents sent, to answer the phone's retry receipts. */
  sent: SentMessageStore;
  /** The connection's inbox, kept across its sockets. */
  inboxOf(connectionId: number): Inbox;
}

/**
 * The sockets of the running connections: opening one, following its connection updates (QR, pairing, open,
 * close), reconnecting with backoff or giving up, and closing it. A connection waiting to reconnect keeps a
 * placeholder session, so it still counts as running and a stop cancels the pending attempt.
 */
export class Sockets {
  private readonly sessions = new Map<number, Session>();
  private generation = 0;
  private readonly baileysLog: BaileysLogger;
  /** Per connection and kept across sockets, so a reconnect cannot restart a message's retry count at zero. */
  private readonly retryCounts = new Map<number, TtlCache>();
  /** A socket's history chunks are imported one after the other (one chat may span several). */
  private readonly historyImports = new KeyedLanes<Session>();
  /**
   * A connection's credential saves, in the order asked and across its sockets. A socket reads the credentials
   * once the saves asked for before it have ended: WhatsApp asks for a restart (515) right after pairing, and a
   * socket opened on the credentials saved before the pairing's save commits shows a new QR instead of logging in.
   */
  private readonly credsSaves = new KeyedLanes<number>();
  private versionQuery?: Promise<WaVersion>;
  private version?: WaVersion;

  constructor(private readonly opts: SocketsOptions) {
    this.baileysLog = bridgeLogger(opts.log, { component: "baileys" });
  }

  /** The connection's session, if it runs. */
  get(connectionId: number): Session | undefined {
    return this.sessions.get(connectionId);
  }

  /** Reads the WhatsApp Web version to present: once, and again after WhatsApp refused it. */
  async resolveVersion(): Promise<void> {
    this.versionQuery ??= resolveWaVersion({
      pinned: this.opts.version,
      fetchLatest: this.opts.fetchLatestVersion,
      log: this.opts.log,
    });
    this.version = await this.versionQuery;
  }

  /**
   * Creates a socket for the connection; `carry` is the outage so far (from the previous attempt). `wanted`
   * says whether a reconnect is still wanted once the awaits before the socket are over (a stop may have come).
   */
  async open(
    conn: ConnectionRef,
    sink: ChannelSink,
    carry: Pick<Session, "failures" | "downSince">,
    wanted: () => boolean = () => true,
  ) {
    await this.credsSaves.settled(conn.id);
    const auth = await useSqliteAuthState(this.opts.db, conn.id);
    if (!wanted()) return;
    // Reported before the socket exists: a socket closes or speaks as soon as I/O runs, and an event emitted
    // before its listeners below are attached is lost (a connection refused then never reconnects).
    await sink.onStatus(conn.id, "OPENING");
    if (!wanted()) return;
    const gen = ++this.generation;
    let qrSeen = () => {};
    const firstQr = new Promise<void>((resolve) => (qrSeen = resolve));
    const logger = this.baileysLog.child({ whatsappId: conn.id });
    const groups = new GroupMetadataCache((jid) => sock.groupMetadata(jid));
    const sock = makeWASocket({
      auth: { creds: auth.state.creds, keys: cachedKeyStore(auth.state.keys, logger, this.opts.now) },
      logger,
      browser: Browsers.ubuntu("Chrome"),
      markOnlineOnConnect: false,
      // Asked for at pairing only: the phone then sends older chats too, which the import needs.
      syncFullHistory: !!conn.historyDays,
      ...(conn.historyDays ? { shouldSyncHistoryMessage: () => true } : {}),
      shouldIgnoreJid: (jid) => isIgnoredJid(jid),
      getMessage: async (key) => (key.id ? await this.opts.sent.get(conn.id, key.id) : undefined),
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
    const inbox = this.opts.inboxOf(conn.id);
    inbox.lidMapping = sock.signalRepository.lidMapping;
    handleMessagesInArrivalOrder(sock);
    holdBeforeReceipts(sock, async (message, type) => await inbox.hold(message, type), this.opts.log);
    lookUpSendersEarly(sock, this.opts.log);
    sock.ev.process(
      async (events) =>
        await takeEvents(s, events, {
          isCurrent: (session) => this.isCurrent(session),
          saveCreds: (session) => this.credsSaves.run(session.conn.id, () => session.auth.saveCreds()),
          onConnection: (session, update) => this.onConnection(session, update),
          inboxOf: this.opts.inboxOf,
          importHistory: (session, job) => this.historyImports.run(session, job),
          now: this.opts.now,
          log: this.opts.log,
        }),
    );
  }

  /** Stops handling a session's events and forgets it (without closing the socket). */
  async detach(s: Session) {
    s.closed = true;
    s.cancelTimer?.();
    if (this.sessions.get(s.conn.id)?.gen === s.gen) this.sessions.delete(s.conn.id);
    await this.opts.inboxOf(s.conn.id).releaseHeld();
  }

  async close(s: Session) {
    await this.detach(s);
    await s.sock.end(undefined).catch(() => undefined);
  }

  /** A logout ends the pairing: retry counts of its messages mean nothing any more. */
  forgetRetryCounts(connectionId: number) {
    this.retryCounts.delete(connectionId);
  }

  private retryCountsOf(connectionId: number) {
    let cache = this.retryCounts.get(connectionId);
    if (!cache)
      this.retryCounts.set(connectionId, (cache = new TtlCache(RETRY_COUNT_TTL, RETRY_COUNT_MAX, this.opts.now)));
    return cache;
  }

  private isCurrent(s: Session) {
    return !s.closed && this.sessions.get(s.conn.id)?.gen === s.gen;
  }

  private async onConnection(s: Session, update: BaileysEventMap["connection.update"]) {
    const id = s.conn.id;
    if (update.qr && !s.pairing) {
      s.qrCount++;
      s.qrSeen();
      if (s.qrCount > MAX_QR) {
        await this.close(s);
        await s.auth.wipe();
        await s.sink.onStatus(id, "DISCONNECTED", { qr: "", reason: "QR code not scanned", unpaired: true });
        return;
      }
      await s.sink.onStatus(id, "qrcode", { qr: update.qr, retries: 0 });
    } else if (update.qr) {
      s.qrSeen();
    }
    if (update.isNewLogin) await s.sink.onStatus(id, "PAIRING", { qr: "" });
    if (update.connection === "open") await this.onOpen(s);
    if (update.connection === "close") await this.onClose(s, update);
  }

  private async onOpen(s: Session) {
    const id = s.conn.id;
    if (s.failures > 0) {
      const downForS = s.downSince === undefined ? undefined : Math.round((this.opts.now() - s.downSince) / 1000);
      this.opts.log.info("baileys connection back", { whatsappId: id, attempts: s.failures, downForS });
    }
    s.failures = 0;
    s.downSince = undefined;
    s.qrCount = 0;
    await s.sink.onStatus(id, "CONNECTED", { qr: "", number: jidUser(s.sock.user?.id) ?? "", retries: 0 });
  }

  /** The socket closed: open a new one now, give up (DISCONNECTED), or try again after a backoff (TIMEOUT). */
  private async onClose(s: Session, update: BaileysEventMap["connection.update"]) {
    const id = s.conn.id;
    const error = update.lastDisconnect?.error as { output?: { statusCode?: number }; message?: string } | undefined;
    const code = error?.output?.statusCode;
    const action = closeAction(code, error?.message, s.failures, this.opts.backoff);
    await this.detach(s);
    if (action.kind === "restart") {
      this.opts.log.info("baileys connection restarting", { whatsappId: id, code });
      await this.open(s.conn, s.sink, { failures: s.failures, downSince: s.downSince });
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
      if (action.wipe) await s.auth.wipe();
      await s.sink.onStatus(id, "DISCONNECTED", {
        ...(action.clearQr ? { qr: "" } : {}),
        reason: action.reason,
        retries: s.failures,
        ...(action.wipe ? { unpaired: true as const } : {}),
      });
    } else {
      const downSince = s.downSince ?? this.opts.now();
      this.opts.log.info("baileys connection lost; reconnecting", {
        whatsappId: id,
        code,
        attempt: action.attempt,
        delayMs: action.delayMs,
      });
      await s.sink.onStatus(id, "TIMEOUT", { retries: action.attempt });
      // A placeholder keeps isRunning true and lets stop() cancel the pending reconnect.
      const waiting: Session = { ...s, closed: false, gen: ++this.generation, failures: action.attempt, downSince };
      waiting.cancelTimer = this.opts.setTimer(async () => {
        const wanted = () => this.isCurrent(waiting);
        if (wanted()) await this.open(s.conn, s.sink, { failures: action.attempt, downSince }, wanted);
      }, action.delayMs);
      this.sessions.set(id, waiting);
    }
  }
}
