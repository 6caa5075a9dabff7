/** Event names the server emits over /ws; frames are `{id, event, payload}`. */
export type EventName =
  | "user"
  | "whatsapp"
  | "whatsappSession"
  | "contact"
  | "queue"
  | "chatbot"
  | "quickAnswer"
  | "ticket"
  | "appMessage"
  | "settings"
  | "settingsMessage"
  | "massMessage"
  | "optOut"
  | "tag"
  | "schedule"
  | "sandbox"
  | "ready"
  | "token"
  | "pong";

/** Messages a client may send over /ws. */
export type ClientMessage =
  | { type: "joinNotification" }
  | { type: "joinTickets"; status: "open" | "pending" | "closed" }
  | { type: "leaveTickets"; status: "open" | "pending" | "closed" }
  | { type: "joinChatBox"; ticketId: number }
  | { type: "leaveChatBox"; ticketId: number }
  | { type: "joinCompany" }
  | { type: "ping" }
  | { type: "token"; token: string };
