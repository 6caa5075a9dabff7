import { and, eq } from "drizzle-orm";
import type { CallEvent } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { messages, tickets, whatsapps } from "../../db/schema";
import { localTime } from "./work-hours";
import { storeMessage } from "../messages/store";
import { getSetting } from "../settings/service";
import { toTicketDto } from "../tickets/serialize";
import type { BotActions } from "./bot";
import { currentContact, findOrCreateContact } from "./contacts";
import type { InboundPipeline } from "./pipeline";
import { findOrCreateTicket } from "./tickets";

/** The auto message sent to callers when calls are disabled. */
export const CALLS_DISABLED_TEXT =
  "*Mensagem Automática:*\nAs chamadas de voz e vídeo estão desabilitadas para esse WhatsApp, favor enviar uma mensagem de texto. Obrigado";
/** A caller gets the auto message at most once in this window. */
export const CALL_REPLY_INTERVAL_MS = 10 * 60 * 1000;

/** The missed-call log line, `HH:mm` zero-padded in the configured time zone. */
export function missedCallText(at: number, timeZone: string): string {
  const { minutes } = localTime(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `Chamada de voz/vídeo perdida às ${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * Calls: with `call` disabled a ringing call is rejected and the caller gets the
 * auto message once per 10 min; every missed (or rejected) call is logged as a `call_log` message in the
 * caller's ticket, creating a pending ticket when there is none.
 */
export class CallHandler {
  private readonly lastReply = new Map<string, number>();

  constructor(
    private readonly deps: AppDeps,
    private readonly actions: BotActions,
    private readonly pipeline: InboundPipeline,
  ) {}

  async handle(whatsappId: number, call: CallEvent): Promise<void> {
    const { deps } = this;
    const connection = deps.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.id, whatsappId)).get();
    if (!connection) return;
    // A call already logged was handled: the same event again (received events are handled again after a
    // restart) must not reject or answer the caller twice.
    if (this.logged(whatsappId, call.id)) return;
    const disabled = getSetting(deps.db, "call") === "disabled";
    if (call.kind === "offer") {
      if (!disabled) return;
      await deps.channels
        .rejectCall(whatsappId, call.id, call.from)
        .catch((error) => deps.log.warn("call reject failed", { whatsappId, error }));
    }
    let contact = findOrCreateContact(deps, { address: call.from, isGroup: false });
    await this.pipeline.runForChat(contact.id, whatsappId, async () => {
      contact = currentContact(deps, contact);
      const { ticket, change } = findOrCreateTicket(deps, { contactId: contact.id, whatsappId, isGroup: false });
      if (change) deps.events.emit("ticket.updated", { ticket: toTicketDto(deps.db, ticket) });
      const stored = storeMessage(deps, {
        whatsappId,
        wid: call.id,
        ticketId: ticket.id,
        contactId: contact.id,
        body: missedCallText(call.at, deps.config.timeZone),
        fromMe: false,
        read: true,
        ack: 1,
        mediaType: "call_log",
        at: call.at,
        countUnread: false,
      });
      if (!disabled || !stored.created) return;
      const key = `${whatsappId}:${call.from}`;
      const last = this.lastReply.get(key) ?? -Infinity;
      if (deps.clock.now() - last < CALL_REPLY_INTERVAL_MS) return;
      this.lastReply.set(key, deps.clock.now());
      const fresh = deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).get()!;
      await this.actions
        .send(fresh, CALLS_DISABLED_TEXT)
        .catch((error) => deps.log.warn("call auto message failed", { whatsappId, error }));
    });
  }

  private logged(whatsappId: number, callId: string): boolean {
    const row = this.deps.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, callId)))
      .get();
    return !!row;
  }
}
