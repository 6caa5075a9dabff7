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

/**
 * POST /sandbox/:whatsappId/inbound: a message from a simulated phone (`from`: its number, or `lid:<digits>` for
 * one that shows only its LID), into a group with `groupId`, or a missed call with `call`.
 */
export interface SandboxInbound {
  from: string;
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
