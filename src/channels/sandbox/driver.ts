import { randomBytes } from "node:crypto";
import { extname, join } from "node:path";
import { AppError } from "../../errors";
import { copyPrivateFile, makePrivateDir } from "../../private-files";
import { lidOfAddress } from "../../shared/address";
import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  MessageKind,
  NormalizedMessage,
  OutgoingMedia,
  SendOptions,
} from "../types";
import type { SandboxChange, SandboxControls, SandboxInbound, SandboxMessageRow } from "./controls";
import type { SandboxNetwork } from "./network";

interface Session {
  sink: ChannelSink;
  qr?: string;
}

const kindOfMime = (mime: string): MessageKind =>
  mime.startsWith("image/")
    ? "image"
    : mime.startsWith("audio/")
      ? "audio"
      : mime.startsWith("video/")
        ? "video"
        : "document";

/**
 * The sandbox network seen as a ChannelDriver: start → QR (or CONNECTED when already paired), `scan` pairs. It
 * is also how the /sandbox API drives the simulated phones.
 */
export class SandboxDriver implements ChannelDriver, SandboxControls {
  readonly kind = "sandbox" as const;
  private readonly sessions = new Map<number, Session>();

  constructor(readonly network: SandboxNetwork) {}

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    const session: Session = { sink };
    this.sessions.set(connection.id, session);
    const pairing = this.network.pairing(connection.id);
    if (pairing) {
      sink.onStatus(connection.id, "CONNECTED", { number: pairing.number, qr: "" });
      return;
    }
    session.qr = `sandbox:${connection.id}:${randomBytes(12).toString("hex")}`;
    sink.onStatus(connection.id, "qrcode", { qr: session.qr });
  }

  /** The simulated phone scans the QR: the connection becomes CONNECTED and stays paired across restarts. */
  scan(connectionId: number) {
    const session = this.sessionOf(connectionId);
    const number = this.network.pair(connectionId);
    session.qr = undefined;
    session.sink.onStatus(connectionId, "CONNECTED", { number, qr: "" });
  }

  async stop(connectionId: number): Promise<void> {
    this.sessions.delete(connectionId);
  }

  async logout(connectionId: number): Promise<void> {
    this.network.unpair(connectionId);
    this.sessions.delete(connectionId);
  }

  isRunning(connectionId: number): boolean {
    return this.sessions.has(connectionId);
  }

  /** True when the connection runs and is paired (it can send and receive). */
  isConnected(connectionId: number): boolean {
    return (
      this.sessions.has(connectionId) && !this.sessions.get(connectionId)!.qr && !!this.network.pairing(connectionId)
    );
  }

  newMessageId(_connectionId: number): string {
    return `SB${randomBytes(10).toString("hex").toUpperCase()}`;
  }

  async sendText(
    connectionId: number,
    to: string,
    isGroup: boolean,
    body: string,
    options: SendOptions,
  ): Promise<void> {
    const session = this.connected(connectionId);
    this.network.record({
      whatsappId: connectionId,
      wid: options.messageId,
      direction: "out",
      peer: to,
      groupId: isGroup ? to : null,
      body,
      mediaType: "chat",
      quotedId: options.quoted?.id ?? null,
    });
    this.network.walkAcks(options.messageId, (ack) => session.sink.onAck(connectionId, options.messageId, ack));
  }

  async sendMedia(
    connectionId: number,
    to: string,
    isGroup: boolean,
    media: OutgoingMedia,
    options: SendOptions,
  ): Promise<void> {
    const session = this.connected(connectionId);
    const dir = join(this.network.mediaDir, "sandbox");
    makePrivateDir(dir);
    const copy = join(
      dir,
      `${options.messageId}${extname(media.fileName)
        .toLowerCase()
        .replace(/[^.a-z0-9]/g, "")}`,
    );
    copyPrivateFile(media.path, copy);
    this.network.record({
      whatsappId: connectionId,
      wid: options.messageId,
      direction: "out",
      peer: to,
      groupId: isGroup ? to : null,
      body: media.caption ?? "",
      mediaType: kindOfMime(media.mimetype),
      fileName: media.fileName,
      mediaPath: copy,
      quotedId: options.quoted?.id ?? null,
    });
    this.network.walkAcks(options.messageId, (ack) => session.sink.onAck(connectionId, options.messageId, ack));
  }

  async markRead(connectionId: number, _chatId: string, _isGroup: boolean, messageIds: string[]): Promise<void> {
    this.connected(connectionId);
    for (const id of messageIds) this.network.setAck(id, 4);
  }

  async deleteForEveryone(connectionId: number, ref: DeleteRef): Promise<void> {
    this.connected(connectionId);
    const row = this.network.byWid(ref.id);
    if (!row || row.whatsappId !== connectionId) throw new Error("unknown sandbox message");
    this.network.revoke(ref.id);
  }

  async checkNumber(connectionId: number, phone: string): Promise<string | null> {
    this.connected(connectionId);
    const digits = phone.replace(/\D/g, "");
    return digits.length >= 8 && digits.length <= 15 ? digits : null;
  }

  async profilePictureUrl(connectionId: number, _chatId: string, _isGroup: boolean): Promise<string | null> {
    this.connected(connectionId);
    return null;
  }

  async rejectCall(connectionId: number, _callId: string, _from: string): Promise<void> {
    this.connected(connectionId);
  }

  /** A simulated phone writes to (or calls) the connection; goes through the sink like a real message. Returns the id. */
  async inbound(connectionId: number, input: SandboxInbound): Promise<string> {
    const session = this.connected(connectionId);
    const id = input.id || this.newMessageId(connectionId);
    const at = this.network.now();
    if (input.call === "missed") {
      await session.sink.onCall(connectionId, { id, from: input.from, at, kind: "missed" });
      return id;
    }
    const kind: MessageKind = input.mediaType ?? "chat";
    const received =
      input.mediaBase64 && kind !== "chat"
        ? this.network.receiveMedia(input.mediaBase64, input.fileName, kind)
        : undefined;
    const media = received && "media" in received ? received.media : undefined;
    const oversized = received && "oversized" in received ? received.oversized : undefined;
    const isGroup = !!input.groupId;
    const lid = input.lid ?? lidOfAddress(input.from);
    await this.network.recordSoon({
      whatsappId: connectionId,
      wid: id,
      direction: "in",
      peer: input.from,
      groupId: input.groupId ?? null,
      body: input.body ?? "",
      mediaType: kind,
      fileName: media?.originalName ?? oversized?.fileName ?? input.fileName ?? null,
      mediaPath: media ? join(this.network.mediaDir, media.fileName) : null,
      quotedId: input.quotedId ?? null,
    });
    const message: NormalizedMessage = {
      id,
      chatId: isGroup ? input.groupId! : input.from,
      isGroup,
      fromMe: false,
      at,
      kind,
      body: input.body ?? "",
      media,
      oversizedMedia: oversized,
      quotedId: input.quotedId,
      pushName: isGroup ? undefined : input.name,
      author: isGroup ? { phone: input.from, name: input.name } : undefined,
      groupName: input.groupName,
      ...(lid ? { lid } : {}),
    };
    await session.sink.onMessage(connectionId, message);
    return id;
  }

  /** The network tells which phone number a LID belongs to (WhatsApp's `lid-mapping.update`). */
  mapLid(connectionId: number, lid: string, phone: string) {
    const session = this.connected(connectionId);
    session.sink.onContacts(connectionId, [{ phone, lid }]);
  }

  /** The simulated contact reads what the connection sent them: acks go to 4, reported through the sink. */
  read(connectionId: number, peer: string) {
    const session = this.connected(connectionId);
    for (const wid of this.network.readAll(connectionId, peer)) session.sink.onAck(connectionId, wid, 4);
  }

  /** The network refuses a message the connection sent: reported through the sink as WhatsApp's nack is. False when unknown. */
  reject(connectionId: number, wid: string, reason = "sandbox"): boolean {
    const session = this.connected(connectionId);
    if (!this.network.reject(connectionId, wid)) return false;
    session.sink.onSendRejected(connectionId, wid, reason);
    return true;
  }

  outbox(connectionId: number, to?: string): SandboxMessageRow[] {
    return this.network.outbox(connectionId, to);
  }

  subscribe(listener: (change: SandboxChange) => void): () => void {
    return this.network.subscribe(listener);
  }

  private sessionOf(connectionId: number): Session {
    const session = this.sessions.get(connectionId);
    if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return session;
  }

  private connected(connectionId: number): Session {
    const session = this.sessionOf(connectionId);
    if (session.qr || !this.network.pairing(connectionId)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return session;
  }
}
