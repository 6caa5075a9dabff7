import { assertCustomerWindow } from "./window";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, notFound } from "../../errors";
import { contactAddress } from "../../shared/address";
import type { AuthUser } from "../../shared/auth-user";
import { contactChat } from "../contacts/lookup";
import { assertMaySend, canSeeTicket } from "../tickets/access";
import { getTicketRow } from "../tickets/service";
import { toMessageDtos } from "./dtos";
import { findMessage } from "./records";
import { applyReaction, type MessageDto } from "./store";

/** One emoji (with its modifiers and joiners), or "" to take the reaction back. */
const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3)*$/u;

/**
 * POST /messages/:id/react: the connection reacts to a customer's message with an emoji ("" removes it), for
 * whoever may send on its ticket. The reaction goes to the network first and is kept, as "me", once it went.
 */
export async function reactToMessage(
  deps: AppDeps,
  user: AuthUser,
  messageId: number,
  emoji: string,
): Promise<MessageDto> {
  if (!EMOJI.test(emoji)) throw new FieldError("emoji", "invalid");
  const message = await findMessage(deps.db, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND");
  const ticket = await getTicketRow(deps, message.ticketId);
  assertMaySend(user, ticket);
  const chat = await contactChat(deps.db, ticket.contactId);
  if (message.fromMe || message.isPrivate || message.isDeleted || message.whatsappId == null || !chat)
    throw new AppError("ERR_INVALID_BODY");
  await assertCustomerWindow(deps, message.whatsappId, ticket.contactId);
  const target = { id: message.wid, fromMe: false, participant: message.participant };
  await deps.channels.sendReaction(message.whatsappId, contactAddress(chat), chat.isGroup, target, emoji);
  await applyReaction(deps, message.whatsappId, { targetId: message.wid, emoji, reactor: "me", at: deps.clock.now() });
  const fresh = (await findMessage(deps.db, messageId)) ?? message;
  return (await toMessageDtos(deps.db, [fresh], (quoted) => canSeeTicket(user, quoted)))[0]!;
}
