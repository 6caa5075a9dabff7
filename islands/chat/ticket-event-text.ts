import type { TFunction } from "i18next";
import type { NamedRef, TicketEvent } from "../../src/shared/contracts";

/**
 * What a change of the ticket reads as between the chat's bubbles ("Transferred to Support by Ana"), or null for
 * what the chat does not show: the creation (the ticket separator stands there) and the kinds of later features.
 */
export function ticketEventText(t: TFunction, e: TicketEvent): string | null {
  const name = (ref: NamedRef) => ref.name ?? t("chat.history.removed");
  const actor = e.actor ? name(e.actor) : undefined;
  /** The sentence naming the person who acted, or without a name when no one did (the server, the chatbot). */
  const by = (key: string, values: Record<string, string> = {}) =>
    actor ? t(`chat.history.${key}By`, { ...values, actor }) : t(`chat.history.${key}`, values);
  switch (e.kind) {
    case "accepted":
      return by("accepted");
    case "assigned":
      return e.to.user ? t("chat.history.assigned", { user: name(e.to.user) }) : null;
    case "transferred":
      return transferText(t, e, name, by);
    case "resolved":
      return e.cause === "auto_close" ? t("chat.history.resolvedAuto") : by("resolved");
    case "reopened":
      return e.cause === "customer" ? t("chat.history.reopenedByCustomer") : by("reopened");
    case "snoozed":
      return by("snoozed");
    case "woken":
      return e.cause === "customer" ? t("chat.history.wokenByCustomer") : by("woken");
    case "rated":
      return e.value != null ? t("chat.history.rated", { rating: e.value }) : null;
    case "bot_stopped":
      return t("chat.history.botStopped", { n: e.value ?? 0 });
    default:
      return null;
  }
}

/** A transfer names where the ticket went: its new user (and queue), its queue, back to waiting, or its connection. */
function transferText(
  t: TFunction,
  { from, to, cause }: TicketEvent,
  name: (ref: NamedRef) => string,
  by: (key: string, values?: Record<string, string>) => string,
): string {
  const queueChanged = from.queue?.id !== to.queue?.id;
  if (to.user && from.user?.id !== to.user.id)
    return by("transferred", {
      target: queueChanged && to.queue ? `${name(to.user)} (${name(to.queue)})` : name(to.user),
    });
  // The chatbot routes a ticket by the customer's choice in its menu, or to the connection's only queue unasked.
  if (to.queue && queueChanged)
    return cause === "chatbot"
      ? t("chat.history.routed", { queue: name(to.queue) })
      : by("transferred", { target: name(to.queue) });
  if (from.user && !to.user) return by("returned");
  if (to.connection && from.connection?.id !== to.connection.id)
    return by("moved", { connection: name(to.connection) });
  return by("changed");
}
