import type { DomainEvent } from "../events/catalogue";
import type { EventBus } from "../events/bus";
import type { EventName, ServerEvents } from "./events";
import type { RealtimeHub } from "./hub";
import { notificationRooms, type Room, statusRooms, ticketRooms } from "./rooms";

/** Who hears an event and what: a payload that is not its event's shape in the shared contract does not compile. */
type Frame = { [E in EventName]: [rooms: Room | Room[], event: E, payload: ServerEvents[E]] }[EventName];

/**
 * The one place that knows who hears what: each domain event becomes the frames browsers receive, on the rooms
 * whose members may see it (see rooms.ts). Entity lists everyone sees go to `all`, administration to `admins`,
 * tickets and their messages to the rooms of that ticket.
 */
export function framesOf({ name, payload: p }: DomainEvent): Frame[] {
  switch (name) {
    case "user.created":
      return [["all", "user", { action: "create", user: p.user }]];
    case "user.updated":
    case "user.availabilityChanged":
      return [["all", "user", { action: "update", user: p.user }]];
    case "user.sessionsChanged":
      return [[`user:${p.user.id}`, "user", { action: "update", user: p.user }]];
    case "user.deleted":
      return [["all", "user", { action: "delete", userId: p.userId }]];
    case "queue.updated":
      return [["all", "queue", { action: "update", queue: p.queue }]];
    case "queue.deleted":
      return [["all", "queue", { action: "delete", queueId: p.queueId }]];
    case "chatbot.updated":
      return [["all", "chatbot", { action: "update", chatbot: p.chatbot }]];
    case "chatbot.deleted":
      return [["all", "chatbot", { action: "delete", chatbotId: p.chatbotId }]];
    case "schedule.created":
      return [["all", "schedule", { action: "create", schedule: p.schedule }]];
    case "schedule.updated":
      return [["all", "schedule", { action: "update", schedule: p.schedule }]];
    case "schedule.deleted":
      return [["all", "schedule", { action: "delete", scheduleId: p.scheduleId }]];
    case "contact.created":
      return [["all", "contact", { action: "create", contact: p.contact }]];
    case "contact.updated":
      return [["all", "contact", { action: "update", contact: p.contact }]];
    case "contact.deleted":
      return [["all", "contact", { action: "delete", contactId: p.contactId }]];
    case "quickAnswer.created":
      return [["all", "quickAnswer", { action: "create", quickAnswer: p.quickAnswer }]];
    case "quickAnswer.updated":
      return [["all", "quickAnswer", { action: "update", quickAnswer: p.quickAnswer }]];
    case "quickAnswer.deleted":
      return [["all", "quickAnswer", { action: "delete", quickAnswerId: p.quickAnswerId }]];
    case "tag.created":
      return [["all", "tag", { action: "create", tag: p.tag }]];
    case "tag.updated":
      return [["all", "tag", { action: "update", tag: p.tag }]];
    case "tag.deleted":
      return [["all", "tag", { action: "delete", tagId: p.tagId }]];
    case "settings.updated":
      return [["admins", "settings", { action: "update", setting: p.setting }]];
    case "bulkSettings.updated":
      return [["admins", "settingsMessage", { action: "update", setting: p.setting }]];
    case "bulk.created":
      return [["admins", "massMessage", { action: "create", record: p.record }]];
    case "bulk.updated":
      return [["admins", "massMessage", { action: "update", record: p.record }]];
    case "bulk.deleted":
      return [["admins", "massMessage", { action: "delete", id: p.id }]];
    case "optOut.created":
      return [["admins", "optOut", { action: "create", optOut: p.optOut }]];
    case "optOut.deleted":
      return [["admins", "optOut", { action: "delete", optOut: p.optOut }]];
    case "connection.updated":
      return [["admins", "whatsapp", { action: "update", whatsapp: p.connection }]];
    case "connection.deleted":
      return [["admins", "whatsapp", { action: "delete", whatsappId: p.connectionId }]];
    case "connection.status":
      return [["admins", "whatsappSession", { action: "update", session: p.session }]];
    case "connection.commanded":
    case "connection.inbound":
    case "webhooks.changed":
      return [];
    case "sandbox.changed":
      return [["admins", "sandbox", p.change]];
    case "chat.presence":
      return [[`ticket:${p.ticket.id}`, "presence", { ticketId: p.ticket.id, contactId: p.contactId, state: p.state }]];
    case "chat.ownPresence":
      return [];
    case "message.created":
      return [
        [
          ticketRooms(p.ticket),
          "appMessage",
          { action: "create", message: p.message, ticket: p.ticket, contact: p.ticket.contact },
        ],
      ];
    case "message.updated":
      return [[`ticket:${p.message.ticketId}`, "appMessage", { action: "update", message: p.message }]];
    case "message.deleted":
      return [
        [ticketRooms(p.ticket), "appMessage", { action: "delete", messageId: p.messageId, ticketId: p.ticket.id }],
      ];
    case "ticket.updated":
      return ticketUpdateFrames(p);
    case "ticket.deleted":
      return [[ticketRooms(p.ticket), "ticket", { action: "delete", ticketId: p.ticket.id }]];
    case "ticket.read":
      return [
        [
          [...statusRooms(p.ticket), ...notificationRooms(p.ticket)],
          "ticket",
          { action: "updateUnread", ticketId: p.ticket.id },
        ],
      ];
    case "ticket.previewAck":
      return [
        [
          [...statusRooms(p.ticket), ...notificationRooms(p.ticket)],
          "ticket",
          { action: "updateAck", ticketId: p.ticket.id, messageId: p.messageId, ack: p.ack },
        ],
      ];
    case "ticket.event":
      return [[`ticket:${p.event.ticketId}`, "ticketEvent", { action: "create", event: p.event }]];
    case "ticket.slaBreached":
      return [["admins", "slaBreach", { ticket: p.ticket, target: p.target }]];
    case "ticket.woken":
      return [[`user:${p.userId}`, "ticketWoken", { ticket: p.ticket }]];
  }
}

/**
 * When a ticket's status, user or queue changed, the lists it was in hear a `delete` first (so they drop it),
 * then every room that may show it now hears the `update`.
 */
function ticketUpdateFrames({ ticket, before }: Extract<DomainEvent, { name: "ticket.updated" }>["payload"]): Frame[] {
  const moved =
    before && (before.status !== ticket.status || before.userId !== ticket.userId || before.queueId !== ticket.queueId);
  const frames: Frame[] = [];
  if (moved) frames.push([statusRooms(before), "ticket", { action: "delete", ticketId: ticket.id }]);
  frames.push([ticketRooms(ticket), "ticket", { action: "update", ticket }]);
  return frames;
}

/**
 * Publishes every domain event, of every node, to the browsers that may see it, after `present` (which turns what services say
 * into what browsers are sent, such as signed media links).
 */
export function publishToBrowsers(
  bus: EventBus,
  hub: RealtimeHub,
  present: (event: DomainEvent) => DomainEvent = (e) => e,
) {
  return bus.subscribeAll((event) => {
    for (const [rooms, name, payload] of framesOf(present(event))) hub.publish(rooms, name, payload);
  });
}
