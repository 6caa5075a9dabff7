import type { CallEvent } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { localTime } from "./work-hours";
import { findConnection } from "../connections/lookup";
import { autoText } from "../../i18n/server";
import type { ConnectionLanguage } from "../../shared/contracts/connections";
import { hasMessage } from "../messages/records";
import { storeMessage } from "../messages/store";
import { getSetting } from "../settings/service";
import { findTicket } from "../tickets/records";
import type { BotActions } from "./bot";
import { currentContact, findOrCreateContact } from "../contacts/find-or-create";
import type { InboundPipeline } from "./pipeline";
import { findOrCreateTicket } from "../tickets/find-or-create";
import { assignReopened } from "../tickets/assignment";

/** A caller gets the auto message at most once in this window. */
export const CALL_REPLY_INTERVAL_MS = 10 * 60 * 1000;

/** The missed-call log line in the connection's language, `HH:mm` zero-padded in the configured time zone. */
export function missedCallText(at: number, timeZone: string, lang: ConnectionLanguage = "pt"): string {
  const { minutes } = localTime(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return autoText(lang, "missedCall", { time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` });
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

  async handle(connectionId: number, call: CallEvent): Promise<void> {
    const { deps } = this;
    const connection = await findConnection(deps.db, connectionId);
    if (!connection) return;
    // A call already logged was handled: the same event again (received events are handled again after a
    // restart) must not reject or answer the caller twice.
    if (await hasMessage(deps.db, connectionId, call.id)) return;
    const disabled = (await getSetting(deps.db, "call")) === "disabled";
    if (call.kind === "offer") {
      if (!disabled) return;
      await deps.channels
        .rejectCall(connectionId, call.id, call.from)
        .catch((error) => deps.log.warn("call reject failed", { whatsappId: connectionId, error }));
    }
    let contact = await findOrCreateContact(deps, { address: call.from, isGroup: false });
    await this.pipeline.runForChat(contact.id, connectionId, async () => {
      contact = await currentContact(deps, contact);
      const found = await findOrCreateTicket(deps, {
        contactId: contact.id,
        whatsappId: connectionId,
        isGroup: false,
        cause: "customer",
      });
      await assignReopened(deps, found);
      const { ticket } = found;
      const stored = await storeMessage(deps, {
        whatsappId: connectionId,
        wid: call.id,
        ticketId: ticket.id,
        contactId: contact.id,
        body: missedCallText(call.at, deps.config.timeZone, connection.language),
        fromMe: false,
        read: true,
        ack: 1,
        mediaType: "call_log",
        at: call.at,
        countUnread: false,
      });
      if (!disabled || !stored.created) return;
      const key = `${connectionId}:${call.from}`;
      const last = this.lastReply.get(key) ?? -Infinity;
      if (deps.clock.now() - last < CALL_REPLY_INTERVAL_MS) return;
      this.lastReply.set(key, deps.clock.now());
      const fresh = (await findTicket(deps.db, ticket.id))!;
      await this.actions
        .send(fresh, autoText(connection.language, "callsDisabled"))
        .catch((error) => deps.log.warn("call auto message failed", { whatsappId: connectionId, error }));
    });
  }
}
