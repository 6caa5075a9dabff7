import { randomUUID } from "node:crypto";
import { join } from "node:path";
import makeWASocket, {
  Browsers,
  DisconnectReason,
  downloadMediaMessage,
  extensionForMediaMessage,
  generateMessageIDV2,
  getContentType,
  isLidUser,
  proto,
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
import { makePrivateDir, writePrivateFile } from "../../private-files";
import { lidOfAddress } from "../../shared/address";
import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  OutgoingMedia,
  OversizedMedia,
  SendOptions,
  StoredMedia,
} from "../types";
import { cachedKeyStore, useSqliteAuthState, type SqliteAuthState } from "./auth-store";
import { TtlCache } from "./cache";
import { GroupMetadataCache } from "./group-cache";
import {
  ackOfReceipt,
  ackOfStatus,
  hasMedia,
  innerMessage,
  isIgnoredJid,
  jidUser,
  mapCall,
  mapContacts,
  nextAck,
  quotedFromRaw,
  readUpsert,
  editedBody,
  type LidToPn,
} from "./map";
import { historyOf } from "./history";
import { closeAction, DEFAULT_BACKOFF, type BackoffOptions } from "./reconnect";
import { SentMessageStore } from "./sent-store";
import { formatVersion, resolveWaVersion, type FetchLatestVersion, type WaVersion } from "./version";

type ILogger = NonNullable<Parameters<typeof makeWASocket>[0]["logger"]>;

/** QR codes shown per start before giving up (server-behaviour rule 162). */
const MAX_QR = 3;
const MEDIA_ATTEMPTS = 3;
const ACK_CACHE = 5000;
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
  /** Per media download (and re-upload request) time limit. */
  mediaTimeoutMs?: number;
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
  acks: Map<string, number>;
  calls: Map<string, string>;
  missed: Set<string>;
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
    this.baileysLog = bridgeLogger(opts.log, { component: "baileys" });
    makePrivateDir(opts.mediaDir);
  }

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    this.versionQuery ??= resolveWaVersion({ pinned: this.opts.version, fetchLatest: this.opts.fetchLatestVersion, log: this.opts.log });
    this.version = await this.versionQuery;
    const old = this.sessions.get(connection.id);
    if (old) await this.close(old);
    this.open(connection, sink, { failures: 0 });
  }

  async stop(connectionId: number): Promise<void> {
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

  async sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions): Promise<void> {
    const s = this.session(connectionId);
    const jid = toJid(to, isGroup);
    await this.send(s, jid, { text: body }, this.sendOptions(jid, options));
  }

  async sendMedia(connectionId: number, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions): Promise<void> {
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
      delete: { remoteJid: jid, fromMe: ref.fromMe, id: ref.id, ...(ref.participant ? { participant: ref.participant } : {}) },
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
      conn, sink, gen, sock, auth, groups, qrCount: 0, ...carry, pairing: false, closed: false,
      acks: new Map(), calls: new Map(), missed: new Set(), firstQr, qrSeen,
    };
    this.sessions.set(conn.id, s);
    sink.onStatus(conn.id, "OPENING");
    // Batches are handled one after another so messages keep their order while media downloads.
    let queue = Promise.resolve();
    sock.ev.process((events) => {
      queue = queue.then(async () => {
        if (!this.isCurrent(s)) return;
        try {
          await this.handle(s, events);
        } catch (error) {
          this.opts.log.error("baileys event handling failed", { whatsappId: conn.id, error });
        }
      });
      return queue;
    });
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
  }

  private async close(s: Session) {
    this.detach(s);
    await s.sock.end(undefined).catch(() => undefined);
  }

  private async handle(s: Session, events: Partial<BaileysEventMap>) {
    const id = s.conn.id;
    if (events["creds.update"]) s.auth.saveCreds();
    const update = events["connection.update"];
    if (update) await this.onConnection(s, update);
    if (!this.isCurrent(s)) return;

    if (events["groups.upsert"]) s.groups.upsert(events["groups.upsert"]);
    if (events["groups.update"]) s.groups.update(events["groups.update"]);
    if (events["group-participants.update"]) s.groups.participants(events["group-participants.update"]);

    const upsert = events["messages.upsert"];
    if (upsert) {
      const lidToPn = await this.lidResolver(s, upsert.messages.flatMap((m) => [m.key.remoteJid, m.key.participant]));
      for (const m of upsert.messages) {
        try {
          await this.onUpsert(s, m, lidToPn);
        } catch (error) {
          this.opts.log.error("baileys message handling failed", { whatsappId: id, messageId: m.key.id, error });
        }
      }
    }
    for (const u of events["messages.update"] ?? []) {
      if (!u.key.id) continue;
      if (u.update.messageStubType === proto.WebMessageInfo.StubType.REVOKE && u.update.message === null) {
        s.sink.onRevoked(id, u.key.id);
      }
      const edited = u.update.message?.editedMessage?.message;
      const body = edited ? editedBody(edited) : null;
      if (body !== null) s.sink.onEdit(id, { id: u.key.id, body, at: u.update.messageTimestamp ? Number(u.update.messageTimestamp) * 1000 : Date.now() });
      const ack = ackOfStatus(u.update.status);
      // An ERROR status is the server refusing the message (an error ack); its first stub parameter is the code.
      if (ack !== undefined) this.ack(s, u.key.id, ack, u.update.messageStubParameters?.[0] ?? undefined);
    }
    for (const r of events["message-receipt.update"] ?? []) {
      const ack = ackOfReceipt(r.receipt);
      if (r.key.id && r.key.fromMe && ack !== undefined) this.ack(s, r.key.id, ack);
    }
    const calls = events.call;
    if (calls) {
      const lidToPn = await this.lidResolver(s, calls.map((c) => c.from));
      for (const c of calls) {
        s.calls.set(c.id, c.from);
        if (s.calls.size > 500) s.calls.delete(s.calls.keys().next().value!);
        const call = mapCall(c, lidToPn);
        if (call) await this.reportCall(s, call);
      }
    }
    const history = events["messaging-history.set"];
    if (history) await this.reportHistory(s, history);
    const mapping = events["lid-mapping.update"];
    if (mapping) {
      const phone = jidUser(mapping.pn);
      const lid = jidUser(mapping.lid);
      if (phone && lid) s.sink.onContacts(id, [{ phone, lid }]);
    }
    const contacts = [
      ...(events["contacts.upsert"] ?? []),
      ...(events["contacts.update"] ?? []),
      ...(events["messaging-history.set"]?.contacts ?? []),
    ];
    if (contacts.length) {
      const lidToPn = await this.lidResolver(s, contacts.map((c) => c.id));
      const mapped = mapContacts(contacts, lidToPn);
      if (mapped.length) s.sink.onContacts(id, mapped);
    }
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
          this.opts.log.error("baileys connection ended", { ...detail, version: this.version && formatVersion(this.version) });
          // Unless WA_VERSION pins it, the next start reads the latest published version again.
          this.versionQuery = undefined;
        } else this.opts.log.warn("baileys connection ended", detail);
        if (action.wipe) s.auth.wipe();
        s.sink.onStatus(id, "DISCONNECTED", { ...(action.clearQr ? { qr: "" } : {}), reason: action.reason, retries: s.failures });
      } else {
        const downSince = s.downSince ?? this.now();
        this.opts.log.info("baileys connection lost; reconnecting", { whatsappId: id, code, attempt: action.attempt, delayMs: action.delayMs });
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

  private async onUpsert(s: Session, m: WAMessage, lidToPn: LidToPn) {
    const id = s.conn.id;
    const read = readUpsert(m, lidToPn);
    switch (read.type) {
      case "ignored":
        this.opts.log.debug("baileys message ignored", { whatsappId: id, messageId: m.key.id, reason: read.reason });
        return;
      case "revoke":
        return s.sink.onRevoked(id, read.id);
      case "missedCall":
        return this.reportCall(s, read.call);
      case "edit":
        return s.sink.onEdit(id, read.edit);
      case "reaction":
        return s.sink.onReaction(id, read.reaction);
    }
    const msg = read.message;
    if (hasMedia(m)) {
      const got = await this.download(s, m);
      if (got && "oversized" in got) msg.oversizedMedia = got.oversized;
      else if (got) {
        msg.media = got;
        if (!msg.body) msg.body = got.originalName;
      } else msg.mediaUnavailable = true;
    }
    await s.sink.onMessage(id, msg);
    // A nack that came before this upsert left the buffer is folded into it, with its code.
    if (msg.fromMe && msg.ack !== undefined) this.ack(s, msg.id, msg.ack, m.messageStubParameters?.[0] ?? undefined);
  }

  private async reportCall(s: Session, call: Parameters<ChannelSink["onCall"]>[1]) {
    if (call.kind === "missed") {
      if (s.missed.has(call.id)) return;
      s.missed.add(call.id);
      if (s.missed.size > 500) s.missed.delete(s.missed.values().next().value!);
    }
    await s.sink.onCall(s.conn.id, call);
  }

  /** Reports an ack only when it moves forward (three sources race; see design doc §4.3); 0 is a rejection. */
  private ack(s: Session, messageId: string, ack: number, reason?: string) {
    const next = nextAck(s.acks.get(messageId), ack);
    if (next === undefined) return;
    s.acks.delete(messageId);
    s.acks.set(messageId, next);
    if (s.acks.size > ACK_CACHE) s.acks.delete(s.acks.keys().next().value!);
    if (next === 0) s.sink.onSendRejected(s.conn.id, messageId, reason);
    else s.sink.onAck(s.conn.id, messageId, next);
  }

  /**
   * The chat history the phone sends after pairing, when the connection imports it. Its LID↔phone pairs need
   * nothing here: Baileys stores them before this event, and its chats come as contacts too. Media is not
   * downloaded: a history holds days of it, and downloading here would hold up every live event behind it.
   */
  private async reportHistory(s: Session, history: BaileysEventMap["messaging-history.set"]) {
    const days = s.conn.historyDays;
    if (!days) return;
    const since = this.now() - days * 86_400_000;
    const recent = history.messages.filter((m) => toNumber(m.messageTimestamp ?? 0) * 1000 >= since);
    if (!recent.length) return;
    const lidToPn = await this.lidResolver(s, recent.flatMap((m) => [m.key.remoteJid, m.key.participant]));
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

  /**
   * Downloads a message's media into the media directory. Media over `maxMediaBytes` is refused from its
   * declared length, or as soon as the download passes the limit, and reported as oversized instead.
   */
  private async download(s: Session, m: WAMessage): Promise<StoredMedia | { oversized: OversizedMedia } | undefined> {
    const inner = innerMessage(m);
    const type = inner ? getContentType(inner) : undefined;
    const media = (type ? inner?.[type] : undefined) as { mimetype?: string | null; fileName?: string | null; fileLength?: unknown } | undefined;
    let ext = "bin";
    try {
      ext = extensionForMediaMessage(inner!) || "bin";
    } catch {}
    const originalName = media?.fileName || `${m.key.id}.${ext}`;
    const declared = byteCount(media?.fileLength);
    if (declared > this.maxMediaBytes) return { oversized: { fileName: originalName, bytes: declared } };
    let current = m;
    for (let attempt = 1; attempt <= MEDIA_ATTEMPTS; attempt++) {
      try {
        const stream = await downloadMediaMessage(
          current,
          "stream",
          { options: { signal: AbortSignal.timeout(this.mediaTimeoutMs) } },
          { logger: this.baileysLog, reuploadRequest: (msg) => s.sock.updateMediaMessage(msg) },
        );
        const chunks: Buffer[] = [];
        let bytes = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (bytes > this.maxMediaBytes) {
            stream.destroy();
            return { oversized: { fileName: originalName, bytes } };
          }
          chunks.push(chunk);
        }
        const fileName = `${randomUUID()}.${ext}`;
        await writePrivateFile(join(this.opts.mediaDir, fileName), Buffer.concat(chunks));
        return { fileName, originalName, mimetype: media?.mimetype || "application/octet-stream" };
      } catch (error) {
        const status = (error as { output?: { statusCode?: number } }).output?.statusCode;
        this.opts.log.warn("baileys media download failed", { whatsappId: s.conn.id, messageId: m.key.id, attempt, status });
        // rc14 never triggers its own re-upload (design doc §6 #1): ask the phone ourselves on expired links.
        if ((status === 404 || status === 410) && this.isCurrent(s)) {
          // Baileys waits for the phone's answer with no time limit.
          current = await Promise.race([
            s.sock.updateMediaMessage(current),
            Bun.sleep(this.mediaTimeoutMs).then(() => current),
          ]).catch(() => current);
        }
      }
    }
    return undefined;
  }
}

/** A send failed because the socket is closed or a query to the server timed out, not because of the message. */
function linkDown(s: Session, error: unknown): boolean {
  const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
  return !s.sock.ws.isOpen || code === DisconnectReason.connectionClosed || code === DisconnectReason.timedOut;
}

/** A protobuf length (a number, or a Long for 64-bit fields) as a number; 0 when unknown. */
function byteCount(value: unknown): number {
  if (typeof value === "number") return value;
  if (value && typeof (value as { toNumber?: unknown }).toNumber === "function") return (value as { toNumber(): number }).toNumber();
  return Number(value) || 0;
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
  const data = (obj: unknown) => ({ ...bindings, ...(obj && typeof obj === "object" ? (obj as Record<string, unknown>) : { detail: obj }) });
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
