import type { Config } from "../config";
import type { PeerSource } from "../http/client-ip";
import { publicOrigin } from "../http/public-origin";
import { familyMediaType, type MessageDto } from "../shared/contracts/messages";
import type { EventName, ServerEvent, ServerEvents } from "./events";

/**
 * The origin a Socket.IO client's media links are made absolute under. Events are shaped once per origin in use,
 * for all the sockets of that origin, so it must be one of the few the operator configured and never whatever a
 * client claims: the address the client reached us at (see publicOrigin) when that is PUBLIC_URL, one of
 * CORS_ORIGINS or the address the server listens at; for any other client PUBLIC_URL, or without one "" (links
 * relative to this server, which a frontend served from the same origin opens as they are).
 */
export function linkOriginOf(config: Pick<Config, "corsOrigins" | "publicUrl" | "trustProxy">, listening: string) {
  const configured = new Set([...config.corsOrigins, listening, ...(config.publicUrl ? [config.publicUrl] : [])]);
  const fallback = config.publicUrl ?? "";
  return (request: Request, server: PeerSource): string => {
    const reached = publicOrigin(request, server, config);
    return configured.has(reached) ? reached : fallback;
  };
}

/** True when the event reads differently for each link origin: a message with a file behind a relative link. */
export function hasRelativeLink<E extends EventName>(event: E, payload: ServerEvents[E]): boolean {
  return !!messageOf({ event, payload } as ServerEvent)?.mediaUrl?.startsWith("/");
}

/**
 * What the family's clients expect of a message event: media links they can open as they are (under `origin`)
 * and their media-type names.
 */
export function familyShape<E extends EventName>(event: E, payload: ServerEvents[E], origin: string): ServerEvents[E] {
  const message = messageOf({ event, payload } as ServerEvent);
  if (!message) return payload;
  const shaped: MessageDto = {
    ...message,
    mediaUrl: message.mediaUrl?.startsWith("/") ? origin + message.mediaUrl : message.mediaUrl,
    mediaType: familyMediaType(message.mediaType),
    quotedMsg: message.quotedMsg
      ? { ...message.quotedMsg, mediaType: familyMediaType(message.quotedMsg.mediaType) }
      : null,
  };
  return { ...payload, message: shaped };
}

/** The message a message event carries (not a deletion's). */
function messageOf(published: ServerEvent): MessageDto | undefined {
  return published.event === "appMessage" && "message" in published.payload ? published.payload.message : undefined;
}
