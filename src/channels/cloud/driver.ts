import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Logger } from "../../log";
import { makePrivateDir } from "../../private-files";
import { KeyedLanes } from "../../shared/lanes";
import { randomHex } from "../../shared/random";
import { DownloadCancelled, DownloadPool } from "../download-pool";
import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  OutgoingMedia,
  MessageTemplate,
  ReactionTarget,
  ReadRef,
  SendOptions,
  CheckedTemplate,
} from "../types";
import type { CloudWebhooks, WebhookVerdict } from "./webhooks";
import { readMessage } from "./content";
import { interactivePayload } from "./interactive";
import { cloudMediaType, downloadCloudMedia, fileNameOf, mimeOf } from "./media";
import { GraphClient, GraphError, reasonOf, recipient } from "./graph";
import { type CloudEvent, type CloudMediaRef, chatOf, eventsOf, sameSecret, validSignature } from "./payload";
import { CloudStore, type JournaledEvent } from "./store";
import { offeredTemplates, templatePayload } from "./templates";

/** What a cloud connection's account holds (kept by the connections module). */
export interface CloudAccount {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

export interface CloudDriverOptions {
  db: Db;
  /** The connection's account, or undefined when it is not a cloud connection. */
  accounts: (connectionId: number) => Promise<CloudAccount | undefined>;
  mediaDir: string;
  log: Logger;
  /** WHATSAPP_CLOUD_API_URL and its version. */
  apiUrl: string;
  apiVersion: string;
  /** Inbound media larger than this is neither downloaded past it nor stored (MAX_MEDIA_MB). */
  maxMediaBytes: number;
  /** Media downloads running at once, over all connections (default 3). */
  mediaConcurrency?: number;
  /** The waits before trying a rate-limited or failed Graph call again (default 1 s, 4 s). */
  retryDelaysMs?: number[];
}

interface Session {
  sink: ChannelSink;
  account: CloudAccount;
}

const ACKS: Record<string, number> = { sent: 2, delivered: 3, read: 4 };

/**
 * Meta's WhatsApp Business Cloud API: no socket and no pairing. A connection is up once the Graph API accepts its
 * token for its phone number; messages come as signed webhooks (journaled first, then handled per chat in order)
 * and go out as Graph calls. The Cloud API names sent messages itself, so the id each got is kept beside the one
 * they are stored under here.
 */
export class CloudDriver implements ChannelDriver, CloudWebhooks {
  readonly kind = "cloud" as const;
  private readonly store: CloudStore;
  private readonly graph: GraphClient;
  private readonly downloads: DownloadPool;
  private readonly sessions = new Map<number, Session>();
  /** Per connection and chat: events in the order they were journaled. */
  private readonly lanes = new KeyedLanes<string>();
  /** Journal rows being handled, so a replay never handles one twice. */
  private readonly handling = new Set<number>();
  /** Per connection: the handling of each row, media included, until it ends. */
  private readonly inFlight = new Map<number, Set<Promise<void>>>();
  private readonly retryDelaysMs: number[];

  constructor(private readonly opts: CloudDriverOptions) {
    this.store = new CloudStore(opts.db);
    this.graph = new GraphClient(opts.apiUrl, opts.apiVersion);
    this.downloads = new DownloadPool(opts.mediaConcurrency ?? 3);
    this.retryDelaysMs = opts.retryDelaysMs ?? [1000, 4000];
    makePrivateDir(opts.mediaDir);
  }

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    const id = connection.id;
    this.sessions.delete(id);
    const account = await this.opts.accounts(id);
    if (!account?.phoneNumberId || !account.accessToken)
      return await sink.onStatus(id, "DISCONNECTED", {
        qr: "",
        reason: "The phone number ID and access token are required",
      });
    let number: string;
    try {
      number = ((await this.graph.phoneNumber(account)).display_phone_number ?? "").replace(/\D/g, "");
    } catch (error) {
      this.opts.log.warn("cloud connection refused", { whatsappId: id, error });
      return await sink.onStatus(id, "DISCONNECTED", { qr: "", reason: reasonOf(error) });
    }
    this.sessions.set(id, { sink, account });
    await sink.onStatus(id, "CONNECTED", { qr: "", number });
    for (const row of await this.store.pending(id)) this.dispatch(id, row);
  }

  async stop(connectionId: number): Promise<void> {
    this.sessions.delete(connectionId);
    this.downloads.cancel(connectionId);
  }

  async logout(connectionId: number): Promise<void> {
    await this.stop(connectionId);
  }

  isRunning(connectionId: number): boolean {
    return this.sessions.has(connectionId);
  }

  newMessageId(): string {
    return `ZD${randomHex(10).toUpperCase()}`;
  }

  async verify(connectionId: number, mode?: string, token?: string, challenge?: string) {
    const account = await this.opts.accounts(connectionId);
    if (!account || mode !== "subscribe" || !token || challenge === undefined) return undefined;
    return sameSecret(token, account.verifyToken) ? challenge : undefined;
  }

  async receive(connectionId: number, rawBody: Uint8Array, signature: string | null): Promise<WebhookVerdict> {
    const account = await this.opts.accounts(connectionId);
    if (!account) return "unknown";
    if (!validSignature(rawBody, signature, account.appSecret)) return "forbidden";
    let events: CloudEvent[];
    try {
      events = eventsOf(JSON.parse(new TextDecoder().decode(rawBody)), account.phoneNumberId);
    } catch {
      return "malformed";
    }
    const rows = await this.store.journal(connectionId, events);
    if (this.sessions.has(connectionId)) for (const row of rows) this.dispatch(connectionId, row);
    return "accepted";
  }

  async resume(connectionId: number): Promise<void> {
    if (!this.sessions.has(connectionId)) return;
    for (const row of await this.store.pending(connectionId)) this.dispatch(connectionId, row);
  }

  async settled(connectionId: number): Promise<void> {
    for (let running = this.inFlight.get(connectionId); running?.size; running = this.inFlight.get(connectionId))
      await Promise.all(running);
  }

  async sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions) {
    const context = options.quoted ? await this.contextOf(connectionId, options.quoted.id) : undefined;
    const interactive = options.menu ? interactivePayload(options.menu) : undefined;
    await this.send(connectionId, options.messageId, recipient(to, isGroup), {
      ...(interactive ? { type: "interactive", interactive } : { type: "text", text: { body, preview_url: false } }),
      ...(context ? { context } : {}),
    });
  }

  async sendMedia(connectionId: number, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions) {
    const session = this.session(connectionId);
    const address = recipient(to, isGroup);
    if (await this.store.wamidOf(connectionId, options.messageId)) return;
    const mediaId = await this.attempt(connectionId, () =>
      this.graph.upload(session.account, media.path, media.mimetype, media.fileName),
    );
    const type = cloudMediaType(media.mimetype);
    const caption = type === "audio" || type === "sticker" ? undefined : media.caption;
    await this.send(connectionId, options.messageId, address, {
      type,
      [type]: {
        id: mediaId,
        ...(caption ? { caption } : {}),
        ...(type === "document" ? { filename: media.fileName } : {}),
      },
    });
  }

  async markRead(connectionId: number, _chatId: string, _isGroup: boolean, messages: ReadRef[]) {
    const session = this.session(connectionId);
    // Reading the latest marks the ones before it read too.
    const last = messages.at(-1)?.id;
    if (last) await this.attempt(connectionId, () => this.graph.markRead(session.account, last));
  }

  async deleteForEveryone(_connectionId: number, _ref: DeleteRef): Promise<void> {
    throw new Error("the Cloud API cannot delete a sent message");
  }

  async checkNumber(_connectionId: number, phone: string): Promise<string | null> {
    // The Cloud API tells whether a number is on WhatsApp only by sending to it.
    const digits = phone.replace(/\D/g, "");
    return digits || null;
  }

  async profilePictureUrl(): Promise<string | null> {
    return null;
  }

  async rejectCall(): Promise<void> {}

  async sendPresence(): Promise<void> {}

  async subscribePresence(): Promise<void> {}

  async sendReaction(connectionId: number, chatId: string, isGroup: boolean, target: ReactionTarget, emoji: string) {
    const messageId = (await this.store.wamidOf(connectionId, target.id)) ?? target.id;
    const session = this.session(connectionId);
    await this.attempt(connectionId, () =>
      this.graph.send(session.account, {
        ...recipient(chatId, isGroup),
        type: "reaction",
        reaction: { message_id: messageId, emoji },
      }),
    );
  }

  async templates(connectionId: number): Promise<MessageTemplate[]> {
    const { account } = this.session(connectionId);
    if (!account.businessAccountId) return [];
    return offeredTemplates(
      await this.attempt(connectionId, () => this.graph.templates(account, account.businessAccountId)),
    );
  }

  async sendTemplate(
    connectionId: number,
    to: string,
    isGroup: boolean,
    template: CheckedTemplate,
    options: SendOptions,
  ) {
    await this.send(connectionId, options.messageId, recipient(to, isGroup), {
      type: "template",
      template: templatePayload(template),
    });
  }

  /** Sends under `wid` once: a message the Cloud API already took is not sent again (an interrupted send's retry). */
  private async send(connectionId: number, wid: string, to: object, payload: object) {
    const session = this.session(connectionId);
    if (await this.store.wamidOf(connectionId, wid)) return;
    const wamid = await this.attempt(connectionId, () => this.graph.send(session.account, { ...to, ...payload }));
    await this.store.rememberSent(connectionId, wid, wamid);
  }

  private async contextOf(connectionId: number, wid: string) {
    return { message_id: (await this.store.wamidOf(connectionId, wid)) ?? wid };
  }

  /**
   * A Graph call, tried again after the configured waits while it is rate-limited or the server fails. A refused
   * token takes the connection down with the reason (the send waits for it to be back); the link failing leaves
   * the send waiting too.
   */
  private async attempt<T>(connectionId: number, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (error instanceof GraphError && error.transient && attempt < this.retryDelaysMs.length) {
          await Bun.sleep(this.retryDelaysMs[attempt]!);
          continue;
        }
        if (error instanceof GraphError && error.auth) {
          await this.lose(connectionId, reasonOf(error));
          throw new AppError("ERR_WAPP_NOT_INITIALIZED");
        }
        if (!(error instanceof GraphError)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
        throw error;
      }
    }
  }

  private async lose(connectionId: number, reason: string) {
    const session = this.sessions.get(connectionId);
    if (!session) return;
    this.sessions.delete(connectionId);
    await session.sink.onStatus(connectionId, "DISCONNECTED", { qr: "", reason });
  }

  private session(connectionId: number): Session {
    const session = this.sessions.get(connectionId);
    if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return session;
  }

  private dispatch(connectionId: number, row: JournaledEvent) {
    if (this.handling.has(row.id)) return;
    this.handling.add(row.id);
    const work = this.lanes
      .run(`${connectionId}:${chatOf(row.event)}`, () => this.handle(connectionId, row.event))
      .then(async (media) => {
        if (media) await this.fetchMedia(connectionId, row.id, media);
        else await this.handled(connectionId, row.id);
      })
      .catch((error) => {
        this.handling.delete(row.id);
        this.opts.log.error("cloud event handling failed; kept for the next start", {
          whatsappId: connectionId,
          error,
        });
      });
    const running = this.inFlight.get(connectionId) ?? new Set();
    this.inFlight.set(connectionId, running);
    running.add(work);
    void work.finally(() => running.delete(work));
  }

  private async handled(connectionId: number, rowId: number) {
    try {
      await this.store.handled(rowId);
    } catch (error) {
      this.opts.log.error("handled cloud event not removed from the journal", { whatsappId: connectionId, error });
    }
    this.handling.delete(rowId);
  }

  /** Handles one event; returns the media still to download, if any. */
  private async handle(connectionId: number, event: CloudEvent): Promise<PendingMedia | undefined> {
    const sink = this.session(connectionId).sink;
    if (event.kind === "cloud.status") {
      const s = event.status;
      const wid = (await this.store.widOf(connectionId, s.id)) ?? s.id;
      if (s.status === "failed") {
        const error = s.errors?.[0];
        return void (await sink.onSendRejected(
          connectionId,
          wid,
          error ? `${error.code ?? ""} ${error.title ?? ""}`.trim() : undefined,
        ));
      }
      const ack = ACKS[s.status];
      if (ack !== undefined) await sink.onAck(connectionId, wid, ack);
      return;
    }
    const read = readMessage(event.message, event.pushName);
    if (read.type === "reaction") {
      const targetId = (await this.store.widOf(connectionId, read.targetId)) ?? read.targetId;
      return void (await sink.onReaction(connectionId, { ...read, targetId }));
    }
    const message = read.message;
    if (message.quotedId)
      message.quotedId = (await this.store.widOf(connectionId, message.quotedId)) ?? message.quotedId;
    const ref = read.media;
    if (ref) message.mediaPending = { originalName: fileNameOf(message.id, ref), mimetype: mimeOf(ref) };
    await sink.onMessage(connectionId, message);
    if (ref && (await sink.wantsMedia(connectionId, message.id))) return { messageId: message.id, ref };
    return;
  }

  /** The file comes after its message (out of the chat's lane, so nothing waits behind it), through the download pool. */
  private async fetchMedia(connectionId: number, rowId: number, media: PendingMedia) {
    try {
      const outcome = await this.downloads.run(connectionId, (signal) =>
        downloadCloudMedia(this.session(connectionId).account, media.ref, media.messageId, signal, {
          graph: this.graph,
          mediaDir: this.opts.mediaDir,
          maxBytes: this.opts.maxMediaBytes,
          log: this.opts.log,
          whatsappId: connectionId,
        }),
      );
      await this.session(connectionId).sink.onMedia(connectionId, media.messageId, outcome);
      await this.handled(connectionId, rowId);
    } catch (error) {
      this.handling.delete(rowId);
      if (!(error instanceof DownloadCancelled))
        this.opts.log.error("cloud media not settled; kept for the next start", { whatsappId: connectionId, error });
    }
  }
}

interface PendingMedia {
  messageId: string;
  ref: CloudMediaRef;
}
