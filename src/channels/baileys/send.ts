import { DisconnectReason, type AnyMessageContent, type MiscMessageGenerationOptions, type WAMessage } from "baileys";
import { AppError } from "../../errors";
import type { Logger } from "../../log";
import type { DeleteRef, OutgoingMedia, OwnPresence, ReactionTarget, ReadRef, SendOptions } from "../types";
import { quotedFromRaw } from "./content";
import { jidUser, readKey, toJid } from "./jid";
import type { SentMessageStore } from "./sent-store";
import type { Session } from "./session";

/** What a connection does on the network on the app's behalf: sends, reads, deletes, lookups, calls. */
export class Sender {
  constructor(
    private readonly sent: SentMessageStore,
    private readonly log: Logger,
  ) {}

  async text(s: Session, to: string, isGroup: boolean, body: string, options: SendOptions): Promise<void> {
    const jid = toJid(to, isGroup);
    await this.send(s, jid, { text: body }, sendOptions(jid, options));
  }

  async media(s: Session, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions): Promise<void> {
    const jid = toJid(to, isGroup);
    await this.send(s, jid, mediaContent(media), sendOptions(jid, options));
  }

  async markRead(s: Session, chatId: string, isGroup: boolean, messages: ReadRef[]): Promise<void> {
    const jid = toJid(chatId, isGroup);
    await s.sock.readMessages(messages.map((ref) => readKey(ref, jid, isGroup)));
  }

  async deleteForEveryone(s: Session, ref: DeleteRef): Promise<void> {
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

  async presence(s: Session, chatId: string, isGroup: boolean, state: OwnPresence): Promise<void> {
    await s.sock.sendPresenceUpdate(state, toJid(chatId, isGroup));
  }

  async subscribePresence(s: Session, chatId: string, isGroup: boolean): Promise<void> {
    await s.sock.presenceSubscribe(toJid(chatId, isGroup));
  }

  async reaction(s: Session, chatId: string, isGroup: boolean, target: ReactionTarget, emoji: string): Promise<void> {
    const jid = toJid(chatId, isGroup);
    await this.send(s, jid, {
      react: {
        text: emoji,
        key: {
          remoteJid: jid,
          fromMe: target.fromMe,
          id: target.id,
          ...(target.participant ? { participant: target.participant } : {}),
        },
      },
    });
  }

  async checkNumber(s: Session, phone: string): Promise<string | null> {
    const digits = phone.replace(/\D/g, "");
    if (!digits) return null;
    const [hit] = (await s.sock.onWhatsApp(digits)) ?? [];
    return hit?.exists ? (jidUser(hit.jid) ?? null) : null;
  }

  async profilePictureUrl(s: Session, chatId: string, isGroup: boolean): Promise<string | null> {
    try {
      return (await s.sock.profilePictureUrl(toJid(chatId, isGroup), "image")) ?? null;
    } catch {
      // Privacy settings or no picture: WhatsApp answers 401/404.
      return null;
    }
  }

  async rejectCall(s: Session, callId: string, from: string): Promise<void> {
    await s.sock.rejectCall(callId, s.calls.get(callId) ?? toJid(from, false));
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
      await this.sent.save(s.conn.id, sent.key.id, sent.message);
    } catch (error) {
      // The message is out; failing the send now would only make the agent send it twice.
      this.log.error("baileys sent content not stored", { whatsappId: s.conn.id, messageId: sent.key.id, error });
    }
  }
}

function sendOptions(jid: string, options: SendOptions): MiscMessageGenerationOptions {
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

function mediaContent(media: OutgoingMedia): AnyMessageContent {
  const source = { url: media.path };
  const major = media.mimetype.split("/")[0];
  if (major === "image") return { image: source, mimetype: media.mimetype, caption: media.caption };
  if (major === "video") return { video: source, mimetype: media.mimetype, caption: media.caption };
  if (major === "audio") return { audio: source, mimetype: media.mimetype, ptt: !!media.ptt };
  return { document: source, mimetype: media.mimetype, fileName: media.fileName, caption: media.caption };
}

/** A send failed because the socket is closed or a query to the server timed out, not because of the message. */
function linkDown(s: Session, error: unknown): boolean {
  const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
  return !s.sock.ws.isOpen || code === DisconnectReason.connectionClosed || code === DisconnectReason.timedOut;
}
