import type { Clock } from "../../shared/clock";
import type { AppDeps } from "../../deps";
import type { DomainEvents } from "../../events/catalogue";
import { forbidden } from "../../errors";
import { contactAddress } from "../../shared/address";
import type { AuthUser } from "../../shared/auth-user";
import { type AgentPresence, COMPOSING_EVERY_MS } from "../../shared/contracts/presence";
import { contactChat } from "../contacts/lookup";
import { assertMaySend, canSeeTicket } from "../tickets/access";
import { getTicketRow } from "../tickets/service";

type OwnPresenceEvent = DomainEvents["chat.ownPresence"];

/** Chats the throttle remembers before it forgets those it would let through anyway. */
const MAX_CHATS = 1000;

/** When each chat was last shown the agent typing, to send WhatsApp one `composing` every few seconds at most. */
export class ComposingThrottle {
  private readonly last = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** True when a `composing` for the chat may go out now; `paused` lets the next one through at once. */
  admit(chat: string, state: AgentPresence): boolean {
    const now = this.clock.now();
    if (state !== "composing") {
      this.last.delete(chat);
      return true;
    }
    const last = this.last.get(chat);
    if (last !== undefined && now - last < COMPOSING_EVERY_MS) return false;
    // Chats whose agent left without a `paused` (a closed tab) are forgotten once they could pass again.
    if (this.last.size >= MAX_CHATS)
      for (const [key, at] of this.last) if (now - at >= COMPOSING_EVERY_MS) this.last.delete(key);
    this.last.set(chat, now);
    return true;
  }
}

/**
 * POST /tickets/:id/presence. `viewing` (the chat opened, for whoever may see the ticket) asks the network for
 * the customer's presence; `composing`/`paused` (only for who may send on it) show the customer the agent typing.
 * Carried out by the node that runs the connection: on another node it travels over the event bus. Presence is
 * best effort: a connection that is down drops it.
 */
export async function showAgentPresence(
  deps: AppDeps,
  throttle: ComposingThrottle,
  user: AuthUser,
  ticketId: number,
  state: AgentPresence,
) {
  const ticket = await getTicketRow(deps, ticketId);
  if (state === "viewing" && !canSeeTicket(user, ticket)) throw forbidden();
  if (state !== "viewing") assertMaySend(user, ticket);
  const chat = await contactChat(deps.db, ticket.contactId);
  if (ticket.whatsappId == null || !chat) return;
  const presence: OwnPresenceEvent = {
    connectionId: ticket.whatsappId,
    chatId: contactAddress(chat),
    isGroup: chat.isGroup,
    state,
  };
  if (!throttle.admit(`${presence.connectionId}:${presence.chatId}`, state)) return;
  if (await deps.channels.isRunning(presence.connectionId)) await showPresenceHere(deps, presence);
  else deps.events.emit("chat.ownPresence", presence);
}

/** Tells the network, when this node runs the connection; failures are logged, never raised. */
export async function showPresenceHere(deps: Pick<AppDeps, "channels" | "log">, presence: OwnPresenceEvent) {
  const { connectionId, chatId, isGroup, state } = presence;
  if (!(await deps.channels.isRunning(connectionId))) return;
  try {
    if (state === "viewing") await deps.channels.subscribePresence(connectionId, chatId, isGroup);
    else await deps.channels.sendPresence(connectionId, chatId, isGroup, state);
  } catch (error) {
    deps.log.info("presence not shown", { whatsappId: connectionId, state, error });
  }
}
