import type makeWASocket from "baileys";
import { generateMessageIDV2 } from "baileys";
import type { Db } from "../../db/client";
import type { Logger } from "../../log";
import { makePrivateDir } from "../../private-files";
import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  OutgoingMedia,
  OwnPresence,
  ReactionTarget,
  SendOptions,
  ReadRef,
} from "../types";
import { useSqliteAuthState } from "./auth-store";
import { trustCertificateRoot } from "./cert-root";
import { Sockets } from "./connection";
import { DownloadPool } from "../download-pool";
import { Inbox } from "./inbox";
import { InboundJournal } from "./journal";
import { removePartialDownloads } from "../media-file";
import { downloadMedia } from "./media";
import { type BackoffOptions, DEFAULT_BACKOFF } from "./reconnect";
import { Sender } from "./send";
import { SentMessageStore } from "./sent-store";
import { realTimer, type Session, type SetTimer } from "./session";
import type { FetchLatestVersion, WaVersion } from "./version";

export type { SetTimer } from "./session";

export interface BaileysDriverOptions {
  db: Db;
  mediaDir: string;
  log: Logger;
  /** Where the sockets connect instead of WhatsApp Web (WA_SOCKET_URL): a proxy, or a fake server in tests. */
  waWebSocketUrl?: string;
  /** The key that server's certificate chain is signed by, in place of WhatsApp's own (WA_CERT_ROOT). */
  certRoot?: Buffer;
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

/**
 * The real WhatsApp Web driver (Baileys 7): one socket per connection (see connection.ts), auth in SQLite,
 * inbound events journaled and handled by each connection's inbox (inbox.ts), sends in send.ts.
 */
export class BaileysDriver implements ChannelDriver {
  readonly kind = "baileys" as const;
  private readonly sockets: Sockets;
  private readonly sender: Sender;
  private readonly journal: InboundJournal;
  private readonly downloads: DownloadPool;
  private readonly mediaTimeoutMs: number;
  private readonly maxMediaBytes: number;
  private readonly drainTimeoutMs: number;
  /** Per connection and kept across sockets: the journaled inbound events on their way to the sink. */
  private readonly inboxes = new Map<number, Inbox>();

  constructor(private readonly opts: BaileysDriverOptions) {
    if (opts.certRoot) trustCertificateRoot(opts.certRoot);
    const now = opts.now ?? Date.now;
    const sent = new SentMessageStore(opts.db, now);
    this.sockets = new Sockets({
      ...opts,
      backoff: { ...DEFAULT_BACKOFF, ...opts.backoff },
      setTimer: opts.setTimer ?? realTimer,
      now,
      sent,
      inboxOf: (connectionId) => this.inboxOf(connectionId),
    });
    this.sender = new Sender(sent, opts.log);
    this.mediaTimeoutMs = opts.mediaTimeoutMs ?? 30_000;
    this.maxMediaBytes = opts.maxMediaBytes ?? 64 * 1024 * 1024;
    this.journal = new InboundJournal(opts.db);
    this.downloads = new DownloadPool(opts.mediaConcurrency ?? 3);
    this.drainTimeoutMs = opts.drainTimeoutMs ?? 8000;
    makePrivateDir(opts.mediaDir);
    removePartialDownloads(opts.mediaDir);
  }

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    await this.sockets.resolveVersion();
    const old = this.sockets.get(connection.id);
    if (old) await this.sockets.close(old);
    await this.sockets.open(connection, sink, { failures: 0 });
    // After the socket exists (LIDs are looked up through it) and before it can deliver anything new.
    await this.inboxOf(connection.id).start(sink);
  }

  /** Finishes handling what was received (new events stay journaled for the next start), then ends the socket. */
  async stop(connectionId: number): Promise<void> {
    await this.inboxes.get(connectionId)?.drain(this.drainTimeoutMs);
    const s = this.sockets.get(connectionId);
    if (s) await this.sockets.close(s);
  }

  async logout(connectionId: number): Promise<void> {
    const s = this.sockets.get(connectionId);
    this.sockets.forgetRetryCounts(connectionId);
    if (!s) {
      await (await useSqliteAuthState(this.opts.db, connectionId)).wipe();
      return;
    }
    await this.sockets.detach(s);
    try {
      await s.sock.logout();
    } catch (error) {
      this.opts.log.warn("baileys logout failed; wiping anyway", { whatsappId: connectionId, error });
      await s.sock.end(undefined).catch(() => undefined);
    }
    await s.auth.wipe();
    await s.sink.onStatus(connectionId, "DISCONNECTED", { qr: "", number: "", unpaired: true });
  }

  isRunning(connectionId: number): boolean {
    return !!this.sockets.get(connectionId);
  }

  newMessageId(connectionId: number): string {
    return generateMessageIDV2(this.sockets.get(connectionId)?.sock.user?.id);
  }

  async sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions) {
    await this.sender.text(this.session(connectionId), to, isGroup, body, options);
  }

  async sendMedia(connectionId: number, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions) {
    await this.sender.media(this.session(connectionId), to, isGroup, media, options);
  }

  async markRead(connectionId: number, chatId: string, isGroup: boolean, messages: ReadRef[]): Promise<void> {
    if (!messages.length) return;
    await this.sender.markRead(this.session(connectionId), chatId, isGroup, messages);
  }

  async deleteForEveryone(connectionId: number, ref: DeleteRef): Promise<void> {
    await this.sender.deleteForEveryone(this.session(connectionId), ref);
  }

  async checkNumber(connectionId: number, phone: string): Promise<string | null> {
    return this.sender.checkNumber(this.session(connectionId), phone);
  }

  async profilePictureUrl(connectionId: number, chatId: string, isGroup: boolean): Promise<string | null> {
    return this.sender.profilePictureUrl(this.session(connectionId), chatId, isGroup);
  }

  async rejectCall(connectionId: number, callId: string, from: string): Promise<void> {
    await this.sender.rejectCall(this.session(connectionId), callId, from);
  }

  async sendPresence(connectionId: number, chatId: string, isGroup: boolean, state: OwnPresence): Promise<void> {
    await this.sender.presence(this.session(connectionId), chatId, isGroup, state);
  }

  async subscribePresence(connectionId: number, chatId: string, isGroup: boolean): Promise<void> {
    await this.sender.subscribePresence(this.session(connectionId), chatId, isGroup);
  }

  async sendReaction(
    connectionId: number,
    chatId: string,
    isGroup: boolean,
    target: ReactionTarget,
    emoji: string,
  ): Promise<void> {
    await this.sender.reaction(this.session(connectionId), chatId, isGroup, target, emoji);
  }

  async requestPairingCode(connectionId: number, phone: string): Promise<string> {
    const s = this.session(connectionId);
    if (s.auth.state.creds.account) throw new Error(`baileys connection ${connectionId} is already paired`);
    // Baileys needs the pairing registration the first QR brings.
    await Promise.race([s.firstQr, Bun.sleep(30_000)]);
    s.pairing = true;
    const code = await s.sock.requestPairingCode(phone.replace(/\D/g, ""));
    await s.sink.onStatus(connectionId, "PAIRING", { qr: "" });
    return code;
  }

  private session(connectionId: number): Session {
    const s = this.sockets.get(connectionId);
    if (!s) throw new Error(`baileys connection ${connectionId} is not running`);
    return s;
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
            const s = this.sockets.get(connectionId);
            return s ? s.sock.updateMediaMessage(msg) : Promise.reject(new Error("not connected"));
          },
        }),
    });
    this.inboxes.set(connectionId, inbox);
    return inbox;
  }
}
