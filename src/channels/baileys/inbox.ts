import {
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  proto,
  type MessageUpsertType,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
} from "baileys";
import type { Logger } from "../../log";
import type { CallEvent, ChannelSink, MediaOutcome } from "../types";
import { DownloadCancelled, type DownloadPool } from "../download-pool";
import type { InboundJournal, JournalEvent, JournalRow, WrittenRow } from "./journal";
import { KeyedLanes } from "../../shared/lanes";
import { ackOfReceipt, ackOfStatus, nextAck } from "./acks";
import { mapCall } from "./calls";
import { ContactRepeats } from "./contact-repeats";
import { mapContacts } from "./contacts";
import { editedBody, hasMedia } from "./content";
import { jidUser, type LidToPn } from "./jid";
import { readUpsert } from "./upsert";
import { mediaInfo } from "./media";

const ACK_CACHE = 5000;
const MISSED_CACHE = 500;
const CONTACTS_LANE = "#contacts";

type LidMapping = WASocket["signalRepository"]["lidMapping"];

export interface InboxOptions {
  connectionId: number;
  journal: InboundJournal;
  downloads: DownloadPool;
  /** Downloads one message's media; throws only when `signal` aborts. */
  download: (m: WAMessage, signal: AbortSignal) => Promise<MediaOutcome>;
  maxMediaBytes: number;
  log: Logger;
}

/**
 * One Baileys connection's inbound events on their way from the journal to the sink. Events are handled in
 * arrival order per chat and concurrently across chats; calls never wait in a chat's line, and media files are
 * downloaded apart (the message is reported at once with its media pending), so nothing waits behind a download.
 * A journal row is removed once its event is handled, media included; rows of a stop or a crash are handled at the
 * next `start`. The inbox outlives the connection's sockets.
 */
export class Inbox {
  /** Where LIDs are looked up: the signal repository of the latest socket (it reads the stored mappings). */
  lidMapping?: LidMapping;
  private sink?: ChannelSink;
  private readonly lanes = new KeyedLanes();
  /** The connection's batches, handed over to their chats' lanes one after another in the order they came. */
  private readonly batches = new KeyedLanes<number>();
  /** Rows being handled, so a replay never handles one twice. */
  private readonly handling = new Set<number>();
  /** Messages journaled before their receipt, by message id, until their upsert comes. */
  private readonly awaitingUpsert = new Map<string, WrittenRow>();
  private paused = true;
  private readonly acks = new Map<string, number>();
  private readonly missed = new Set<string>();
  /** Message ids whose media is being downloaded now. */
  private readonly downloading = new Set<string>();
  private readonly contactRepeats = new ContactRepeats();

  constructor(private readonly opts: InboxOptions) {}

  /** Starts handling: first every row left by an earlier stop or crash, then what arrives. */
  async start(sink: ChannelSink) {
    this.sink = sink;
    this.paused = false;
    const held = new Set([...this.awaitingUpsert.values()].map((row) => row.id));
    let left: JournalRow[] = [];
    try {
      left = await this.opts.journal.pending(this.opts.connectionId);
    } catch (error) {
      this.opts.log.error("inbound journal not read; what it holds waits for the next start", {
        whatsappId: this.opts.connectionId,
        error,
      });
    }
    for (const row of left) if (!held.has(row.id)) this.dispatch(row);
  }

  /**
   * Stops taking new events (they are still journaled, and handled at the next start) and waits, at most
   * `timeoutMs`, for the events already taken (received before now, their journal writes included). Media
   * downloads are cancelled; their rows stay.
   */
  async drain(timeoutMs: number) {
    this.paused = true;
    this.opts.downloads.cancel(this.opts.connectionId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
    const handled = this.batches
      .settled(this.opts.connectionId)
      .then(() => this.lanes.idle())
      .then(() => false);
    const timedOut = await Promise.race([handled, late]);
    clearTimeout(timer);
    await this.opts.journal.removeWaiting();
    if (timedOut)
      this.opts.log.warn("inbound handling still running at stop; left for the next start", {
        whatsappId: this.opts.connectionId,
      });
  }

  /** Journals a decrypted message before Baileys receipts it; it is handled when its upsert comes. */
  async hold(message: WAMessage, type: MessageUpsertType) {
    if (!message.key.id) return;
    const [row] = await this.opts.journal.write(this.opts.connectionId, [{ kind: "upsert", type, message }]);
    this.awaitingUpsert.set(message.key.id, row!);
  }

  /**
   * Journals one batch of events in one transaction, then hands them over (unless paused). Writes of several
   * batches may overlap (a database server answers them in any order); batches are handed over in the order
   * they were received all the same, so a chat's messages are stored in their order.
   */
  async receive(events: JournalEvent[]) {
    // Taken if it came before a drain began, even if its journal write ends after.
    const taken = !this.paused;
    const news = this.contactRepeats.drop(events);
    if (!news.length) return;
    const written = this.journaled(news);
    await this.batches.run(this.opts.connectionId, async () => {
      for (const row of await written) if (taken) this.dispatch(row, true);
    });
  }

  private async journaled(events: JournalEvent[]): Promise<{ id?: number; event: JournalEvent }[]> {
    try {
      return await this.opts.journal.write(this.opts.connectionId, events, (event) => {
        const id = event.kind === "upsert" ? event.message.key.id : undefined;
        const held = id ? this.awaitingUpsert.get(id) : undefined;
        if (id && held !== undefined) this.awaitingUpsert.delete(id);
        return held;
      });
    } catch (error) {
      this.opts.log.error("inbound events not journaled; handling them anyway", {
        whatsappId: this.opts.connectionId,
        error,
      });
      return events.map((event) => ({ event }));
    }
  }

  /** Messages journaled before their receipt whose upsert will not come (their socket ended) are handled now. */
  async releaseHeld() {
    const rows = [...this.awaitingUpsert.values()];
    this.awaitingUpsert.clear();
    for (const { id } of rows) {
      const row = await this.opts.journal.get(this.opts.connectionId, id);
      if (row) this.dispatch(row);
    }
  }

  /** Hands an event to its line; `id` is its journal row (absent when it could not be journaled). */
  private dispatch(row: { id?: number; event: JournalEvent }, taken = !this.paused) {
    if (!taken || (row.id !== undefined && this.handling.has(row.id))) return;
    if (row.id !== undefined) this.handling.add(row.id);
    this.lanes
      .run(laneOf(row.event), () => this.handle(row.event))
      .then(
        async (media) => (media ? await this.fetchMedia(row.id, media) : await this.finish(row.id)),
        (error) => {
          if (row.id !== undefined) this.handling.delete(row.id);
          this.contactRepeats.forget(row.event);
          this.opts.log.error("inbound event handling failed; kept for the next start", {
            whatsappId: this.opts.connectionId,
            kind: row.event.kind,
            error,
          });
        },
      );
  }

  private async finish(rowId: number | undefined) {
    if (rowId === undefined) return;
    try {
      await this.opts.journal.remove(rowId);
    } catch (error) {
      this.opts.log.error("handled inbound event not removed from the journal", {
        whatsappId: this.opts.connectionId,
        error,
      });
    }
    this.handling.delete(rowId);
  }

  private async fetchMedia(rowId: number | undefined, m: WAMessage) {
    const id = this.opts.connectionId;
    const messageId = m.key.id!;
    // Stopping: the download is left to the next start, with its row.
    if (this.paused) return void (rowId !== undefined && this.handling.delete(rowId));
    // The same message delivered twice: the download already running settles its media.
    if (this.downloading.has(messageId)) return await this.finish(rowId);
    this.downloading.add(messageId);
    this.opts.downloads
      .run(id, (signal) => this.opts.download(m, signal))
      .then((outcome) => this.sink!.onMedia(id, messageId, outcome))
      .finally(() => this.downloading.delete(messageId))
      .then(
        async () => await this.finish(rowId),
        (error) => {
          if (rowId !== undefined) this.handling.delete(rowId);
          if (!(error instanceof DownloadCancelled))
            this.opts.log.error("inbound media not settled; kept for the next start", {
              whatsappId: id,
              messageId: m.key.id,
              error,
            });
        },
      );
  }

  /** Handles one event; returns the message whose media is still to download, if any. */
  private async handle(event: JournalEvent): Promise<WAMessage | undefined> {
    const id = this.opts.connectionId;
    const sink = this.sink!;
    switch (event.kind) {
      case "upsert":
        return this.handleUpsert(event.message);
      case "update": {
        const { key, update } = event.update;
        if (!key.id) return;
        if (update.messageStubType === proto.WebMessageInfo.StubType.REVOKE && update.message === null)
          await sink.onRevoked(id, key.id);
        const edited = update.message?.editedMessage?.message;
        const body = edited ? editedBody(edited) : null;
        if (body !== null)
          await sink.onEdit(id, {
            id: key.id,
            body,
            at: update.messageTimestamp ? Number(update.messageTimestamp) * 1000 : Date.now(),
          });
        const ack = ackOfStatus(update.status);
        // An ERROR status is the server refusing the message (an error ack); its first stub parameter is the code.
        if (ack !== undefined) await this.ack(key.id, ack, update.messageStubParameters?.[0] ?? undefined);
        return;
      }
      case "receipt": {
        const ack = ackOfReceipt(event.receipt.receipt);
        if (event.receipt.key.id && ack !== undefined) await this.ack(event.receipt.key.id, ack);
        return;
      }
      case "call": {
        const call = mapCall(event.call, await this.resolver([event.call.from]));
        if (call) await this.reportCall(call);
        return;
      }
      case "lid-mapping": {
        const phone = jidUser(event.mapping.pn);
        const lid = jidUser(event.mapping.lid);
        if (phone && lid) await sink.onContacts(id, [{ phone, lid }]);
        return;
      }
      case "contacts": {
        const mapped = mapContacts(event.contacts, await this.resolver(event.contacts.map((c) => c.id)));
        if (mapped.length) await sink.onContacts(id, mapped);
        return;
      }
    }
  }

  private async handleUpsert(m: WAMessage): Promise<WAMessage | undefined> {
    const id = this.opts.connectionId;
    const sink = this.sink!;
    const read = readUpsert(m, await this.resolver([m.key.remoteJid, m.key.participant]));
    switch (read.type) {
      case "ignored":
        this.opts.log.debug("baileys message ignored", { whatsappId: id, messageId: m.key.id, reason: read.reason });
        return;
      case "revoke":
        await sink.onRevoked(id, read.id);
        return;
      case "missedCall":
        // Out of the chat's line; the call event of the same call is journaled on its own too.
        void this.lanes
          .run(null, () => this.reportCall(read.call))
          .catch((error) => this.opts.log.error("missed call not handled", { whatsappId: id, error }));
        return;
      case "edit":
        await sink.onEdit(id, read.edit);
        return;
      case "reaction":
        await sink.onReaction(id, read.reaction);
        return;
    }
    const msg = read.message;
    if (hasMedia(m)) {
      const info = mediaInfo(m);
      if (info.declaredBytes > this.opts.maxMediaBytes)
        msg.oversizedMedia = { fileName: info.originalName, bytes: info.declaredBytes };
      else msg.mediaPending = { originalName: info.originalName, mimetype: info.mimetype };
    }
    await sink.onMessage(id, msg);
    // A nack that came before this upsert left the buffer is folded into it, with its code.
    if (msg.fromMe && msg.ack !== undefined) await this.ack(msg.id, msg.ack, m.messageStubParameters?.[0] ?? undefined);
    return msg.mediaPending && (await sink.wantsMedia(id, msg.id)) ? m : undefined;
  }

  private async reportCall(call: CallEvent) {
    if (call.kind === "missed") {
      if (this.missed.has(call.id)) return;
      this.missed.add(call.id);
      if (this.missed.size > MISSED_CACHE) this.missed.delete(this.missed.values().next().value!);
    }
    await this.sink!.onCall(this.opts.connectionId, call);
  }

  /**
   * Reports an ack only when it moves forward: the own message's upsert, messages.update and group receipts
   * race. 0 is WhatsApp refusing the message, reported as a rejection with its code.
   */
  private async ack(messageId: string, ack: number, reason?: string) {
    const next = nextAck(this.acks.get(messageId), ack);
    if (next === undefined) return;
    this.acks.delete(messageId);
    this.acks.set(messageId, next);
    if (this.acks.size > ACK_CACHE) this.acks.delete(this.acks.keys().next().value!);
    if (next === 0) await this.sink!.onSendRejected(this.opts.connectionId, messageId, reason);
    else await this.sink!.onAck(this.opts.connectionId, messageId, next);
  }

  /** Looks up phone jids for the LIDs among `jids` that Baileys already knows. */
  private async resolver(jids: (string | null | undefined)[]): Promise<LidToPn> {
    const lids = [...new Set(jids.filter((j): j is string => !!j && !!isLidUser(j)))];
    const found = new Map<string, string>();
    for (const lid of lids) {
      const pn = await this.lidMapping?.getPNForLID(lid).catch(() => null);
      if (pn) found.set(lid, pn);
    }
    return (lid) => found.get(lid);
  }
}

/** The line an event waits in: its chat (the phone jid when known), none for calls, one for contact news. */
function laneOf(event: JournalEvent): string | null {
  switch (event.kind) {
    case "upsert":
      return chatLane(event.message.key);
    case "update":
      return chatLane(event.update.key);
    case "receipt":
      return chatLane(event.receipt.key);
    case "call":
      return null;
    default:
      return CONTACTS_LANE;
  }
}

function chatLane(key: WAMessageKey): string {
  const alt = key.remoteJidAlt;
  const jid = alt && isPnUser(alt) ? alt : key.remoteJid;
  return jid ? jidNormalizedUser(jid) : "#unknown";
}
