/** The kinds of message a simulated phone can send. */
export const SANDBOX_MESSAGE_KINDS = [
  "chat",
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "vcard",
  "location",
] as const;

export type SandboxMessageKind = (typeof SANDBOX_MESSAGE_KINDS)[number];

/** POST /sandbox/:whatsappId/inbound: a message from a simulated phone, into a group with `groupId`, or a missed call. */
export interface SandboxInbound {
  /** The sender's phone digits, or `lid:<digits>` for a sender the network shows only by their LID. */
  from: string;
  /** The sender's LID besides the phone number in `from` (WhatsApp then tells both). */
  lid?: string;
  name?: string;
  body?: string;
  mediaType?: SandboxMessageKind;
  mediaBase64?: string;
  fileName?: string;
  quotedId?: string;
  groupId?: string;
  groupName?: string;
  call?: "missed";
  /** The message's id on the network, when the caller picks it. */
  id?: string;
}

/** POST /sandbox/:whatsappId/read: the simulated phone `to` reads what the connection sent it. */
export interface SandboxRead {
  to: string;
}

/** POST /sandbox/:whatsappId/reject: the network refuses the connection's message `id`. */
export interface SandboxReject {
  id: string;
}

/** POST /sandbox/:whatsappId/lid-mapping: the phone with this LID shares its number. */
export interface SandboxLidMapping {
  lid: string;
  phone: string;
}
