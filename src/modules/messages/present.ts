import type { AppDeps } from "../../deps";
import type { DomainEvent } from "../../events/catalogue";
import { isAllowedOrigin } from "../../http/cors";
import { signedMediaPath } from "../../http/signed-links";
import type { PeerSource } from "../../http/client-ip";
import { publicOrigin } from "../../http/public-origin";
import { familyMediaType, type MessageDto } from "../../shared/contracts/messages";

/** How messages are shown to one caller: links under which origin, and in whose media-type names. */
export interface Presentation {
  /** Prefix of media links: an origin for API answers, "" for our own pages (same origin). */
  origin: string;
  /** Answer the whaticket family's media-type names (`contactMessage`, `locationMessage`). */
  familyNames: boolean;
}

/** Our own pages: same-origin links, Zapdesk's names. */
export const OWN_PAGES: Presentation = { origin: "", familyNames: false };

/**
 * How an API answer presents messages: absolute media links (PUBLIC_URL or the request's origin), and the
 * family's media-type names for pages of a CORS_ORIGINS origin: those are the family's frontends, our own pages
 * are same-origin and keep Zapdesk's names.
 */
export function presentationFor(deps: Pick<AppDeps, "config">, request: Request, server: PeerSource): Presentation {
  return {
    origin: publicOrigin(request, server, deps.config),
    familyNames: isAllowedOrigin(deps.config, request.headers.get("origin")),
  };
}

/** Messages as a caller receives them: each file behind a signed link, media types named as it expects. */
export function presentMessages<M extends Pick<MessageDto, "id" | "mediaUrl" | "mediaType" | "quotedMsg">>(
  deps: Pick<AppDeps, "config" | "clock">,
  messages: M[],
  how: Presentation,
): M[] {
  const typeName = (type: string) => (how.familyNames ? familyMediaType(type) : type);
  return messages.map((m) => ({
    ...m,
    mediaUrl: m.mediaUrl ? how.origin + signedMediaPath(deps, m.id) : null,
    mediaType: typeName(m.mediaType),
    quotedMsg: m.quotedMsg ? { ...m.quotedMsg, mediaType: typeName(m.quotedMsg.mediaType) } : m.quotedMsg,
  }));
}

/** A domain event as our own pages receive it over /ws: a message's file behind a signed same-origin link. */
export function presentToBrowsers(deps: Pick<AppDeps, "config" | "clock">, event: DomainEvent): DomainEvent {
  if (event.name !== "message.created" && event.name !== "message.updated") return event;
  const [message] = presentMessages(deps, [event.payload.message], OWN_PAGES);
  return { ...event, payload: { ...event.payload, message: message! } } as DomainEvent;
}
