import type { Config } from "../config";
import type { PeerSource } from "../http/client-ip";
import { publicOrigin } from "../http/public-origin";
import { familyMediaType } from "../shared/contracts/messages";

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

interface FamilyMessage {
  mediaUrl?: string | null;
  mediaType?: string;
  quotedMsg?: { mediaType?: string } | null;
}

/** True when the event reads differently for each link origin: a message with a file behind a relative link. */
export function hasRelativeLink(event: string, payload: unknown): boolean {
  return event === "appMessage" && !!messageOf(payload)?.mediaUrl?.startsWith("/");
}

/**
 * What the family's clients expect of a message event: media links they can open as they are (under `origin`)
 * and their media-type names.
 */
export function familyShape(event: string, payload: unknown, origin: string): unknown {
  const message = messageOf(payload);
  if (event !== "appMessage" || !message) return payload;
  const name = (type: string | undefined) => (type ? familyMediaType(type) : type);
  return {
    ...(payload as object),
    message: {
      ...message,
      mediaUrl: message.mediaUrl?.startsWith("/") ? origin + message.mediaUrl : message.mediaUrl,
      mediaType: name(message.mediaType),
      quotedMsg: message.quotedMsg ? { ...message.quotedMsg, mediaType: name(message.quotedMsg.mediaType) } : null,
    },
  };
}

const messageOf = (payload: unknown) => (payload as { message?: FamilyMessage } | null)?.message;
