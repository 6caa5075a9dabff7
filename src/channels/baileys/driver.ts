import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import makeWASocket, {
  Browsers,
  downloadMediaMessage,
  extensionForMediaMessage,
  generateMessageIDV2,
  getContentType,
  isLidUser,
  proto,
  type AnyMessageContent,
  type BaileysEventMap,
  type MiscMessageGenerationOptions,
  type WAMessage,
  type WASocket,
} from "baileys";
import type { Db } from "../../db/client";
import type { Logger } from "../../log";
import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  OutgoingMedia,
  SendOptions,
} from "../types";
import { useSqliteAuthState, type SqliteAuthState } from "./auth-store";
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
import { closeAction, DEFAULT_BACKOFF, type BackoffOptions } from "./reconnect";

type ILogger = NonNullable<Parameters<typeof makeWASocket>[0]["logger"]>;

/** QR codes shown per start before giving up (server-behaviour rule 162). */
const MAX_QR = 3;
const MEDIA_ATTEMPTS = 3;
const ACK_CACHE = 5000;

export interface BaileysDriverOptions {
  db: Db;
  mediaDir: string;
  log: Logger;
  /** Test-only: a local fake server instead of WhatsApp Web. */
  waWebSocketUrl?: string;
  version?: [number, number, number];
  backoff?: Partial<BackoffOptions>;
  /** Per media download (and re-upload request) time limit. */
  mediaTimeoutMs?: number;
  /** Extra socket config (tests: qrTimeout, connectTimeoutMs…). */
  socketConfig?: Partial<Parameters<typeof makeWASocket>[0]>;
}

interface Session {
  conn: ConnectionRef;
  sink: ChannelSink;
  gen: number;
  sock: WASocket;
  auth: SqliteAuthState;
  qrCount: number;
  failures: number;
  pairing: boolean;
  closed: boolean;
  timer?: ReturnType<typeof setTimeout>;
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

  constructor(private opts: BaileysDriverOptions) {
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.mediaTimeoutMs = opts.mediaTimeoutMs ?? 30_000;
    this.baileysLog = bridgeLogger(opts.log, { component: "baileys" });
    mkdirSync(opts.mediaDir, { recursive: true });
  }

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    const old = this.sessions.get(connection.id);
    if (old) await this.close(old);
    this.open(connection, sink, 0);
  }

  async stop(connectionId: number): Promise<void> {
    const s = this.sessions.get(connectionId);
    if (s) await this.close(s);
  }

  async logout(connectionId: number): Promise<void> {
    const s = this.sessions.get(connectionId);
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
    await s.sock.sendMessage(jid, { text: body }, this.sendOptions(jid, options));
  }

  async sendMedia(connectionId: number, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions): Promise<void> {
    const s = this.session(connectionId);
    const jid = toJid(to, isGroup);
    await s.sock.sendMessage(jid, mediaContent(media), this.sendOptions(jid, options));
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
    await s.sock.sendMessage(jid, {
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

  /** Creates a socket for the connection; state carried over (failures) comes from the previous attempt. */
  private open(conn: ConnectionRef, sink: ChannelSink, failures: number) {
    const auth = useSqliteAuthState(this.opts.db, conn.id);
    const gen = ++this.generation;
    let qrSeen = () => {};
    const firstQr = new Promise<void>((resolve) => (qrSeen = resolve));
    const sock = makeWASocket({
      auth: auth.state,
      logger: this.baileysLog.child({ whatsappId: conn.id }),
      browser: Browsers.ubuntu("Chrome"),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldIgnoreJid: (jid) => isIgnoredJid(jid),
      getMessage: async (key) => this.storedMessage(conn.id, key.id),
      ...(this.opts.waWebSocketUrl ? { waWebSocketUrl: this.opts.waWebSocketUrl } : {}),
      ...(this.opts.version ? { version: this.opts.version } : {}),
      ...this.opts.socketConfig,
    });
    const s: Session = {
      conn, sink, gen, sock, auth, qrCount: 0, failures, pairing: false, closed: false,
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

  /** Content of a message we stored (`raw` kept in messages.data_json), for Baileys' retry receipts. */
  private async storedMessage(connectionId: number, wid: string | null | undefined): Promise<proto.IMessage | undefined> {
    if (!wid) return undefined;
    const row = this.opts.db.$client
      .query<{ data_json: string | null }, [number, string]>("SELECT data_json FROM messages WHERE whatsapp_id = ? AND wid = ?")
      .get(connectionId, wid);
    if (!row?.data_json) return undefined;
    try {
      const message = proto.Message.fromObject(JSON.parse(row.data_json));
      return getContentType(message) ? message : undefined;
    } catch {
      return undefined;
    }
  }

  private isCurrent(s: Session) {
    return !s.closed && this.sessions.get(s.conn.id)?.gen === s.gen;
  }

  /** Stops handling a session's events and forgets it (without closing the socket). */
  private detach(s: Session) {
    s.closed = true;
    if (s.timer) clearTimeout(s.timer);
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
      if (ack !== undefined) this.ack(s, u.key.id, ack);
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
      s.failures = 0;
      s.qrCount = 0;
      s.sink.onStatus(id, "CONNECTED", { qr: "", number: jidUser(s.sock.user?.id) ?? "", retries: 0 });
    }
    if (update.connection === "close") {
      const error = update.lastDisconnect?.error as { output?: { statusCode?: number }; message?: string } | undefined;
      const code = error?.output?.statusCode;
      const action = closeAction(code, error?.message, s.failures, this.backoff);
      this.detach(s);
      this.opts.log.info("baileys connection closed", { whatsappId: id, code, action: action.kind });
      if (action.kind === "restart") {
        this.open(s.conn, s.sink, s.failures);
      } else if (action.kind === "disconnect") {
        if (action.wipe) s.auth.wipe();
        s.sink.onStatus(id, "DISCONNECTED", { ...(action.clearQr ? { qr: "" } : {}), reason: action.reason, retries: s.failures });
      } else {
        s.sink.onStatus(id, "TIMEOUT", { retries: action.attempt });
        // A placeholder keeps isRunning true and lets stop() cancel the pending reconnect.
        const waiting: Session = { ...s, closed: false, gen: ++this.generation };
        waiting.timer = setTimeout(() => {
          if (this.isCurrent(waiting)) this.open(s.conn, s.sink, action.attempt);
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
      const media = await this.download(s, m);
      if (media) {
        msg.media = media;
        if (!msg.body) msg.body = media.originalName;
      } else msg.mediaUnavailable = true;
    }
    await s.sink.onMessage(id, msg);
    if (msg.fromMe && msg.ack !== undefined) this.ack(s, msg.id, msg.ack);
  }

  private async reportCall(s: Session, call: Parameters<ChannelSink["onCall"]>[1]) {
    if (call.kind === "missed") {
      if (s.missed.has(call.id)) return;
      s.missed.add(call.id);
      if (s.missed.size > 500) s.missed.delete(s.missed.values().next().value!);
    }
    await s.sink.onCall(s.conn.id, call);
  }

  /** Reports an ack only when it moves forward (three sources race; see design doc §4.3). */
  private ack(s: Session, messageId: string, ack: number) {
    const next = nextAck(s.acks.get(messageId), ack);
    if (next === undefined) return;
    s.acks.delete(messageId);
    s.acks.set(messageId, next);
    if (s.acks.size > ACK_CACHE) s.acks.delete(s.acks.keys().next().value!);
    s.sink.onAck(s.conn.id, messageId, next);
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

  private async download(s: Session, m: WAMessage) {
    const inner = innerMessage(m);
    const type = inner ? getContentType(inner) : undefined;
    const media = (type ? inner?.[type] : undefined) as { mimetype?: string | null; fileName?: string | null } | undefined;
    let ext = "bin";
    try {
      ext = extensionForMediaMessage(inner!) || "bin";
    } catch {}
    let current = m;
    for (let attempt = 1; attempt <= MEDIA_ATTEMPTS; attempt++) {
      try {
        const data = await downloadMediaMessage(
          current,
          "buffer",
          { options: { signal: AbortSignal.timeout(this.mediaTimeoutMs) } },
          { logger: this.baileysLog, reuploadRequest: (msg) => s.sock.updateMediaMessage(msg) },
        );
        const fileName = `${randomUUID()}.${ext}`;
        await Bun.write(join(this.opts.mediaDir, fileName), data);
        return { fileName, originalName: media?.fileName || `${m.key.id}.${ext}`, mimetype: media?.mimetype || "application/octet-stream" };
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

function toJid(to: string, isGroup: boolean) {
  return isGroup ? `${to}@g.us` : `${to.replace(/\D/g, "")}@s.whatsapp.net`;
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
