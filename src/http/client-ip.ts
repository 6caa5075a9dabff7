import { type IpRanges, isLoopback } from "../shared/ip-ranges";

/** What Bun's server says about a request's peer (absent under `app.handle`). */
export type PeerSource = { requestIP(request: Request): { address: string } | null } | null | undefined;

/** The client address of a request whose peer is not known (one handed to the app without a server). */
const UNKNOWN = "unknown";

/** The address of the socket's other end; undefined when there is no socket to ask. */
export function peerAddress(request: Request, server: PeerSource): string | undefined {
  return server?.requestIP(request)?.address ?? undefined;
}

/** True when the request's peer is one of the trusted proxies, so the X-Forwarded-* headers it sent count. */
export function viaTrustedProxy(request: Request, server: PeerSource, trusted: IpRanges): boolean {
  return trusted.has(peerAddress(request, server));
}

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy. Then X-Forwarded-For is read from
 * the right, where each proxy appended the address it saw: entries of trusted proxies are skipped, and the first
 * other one is the client (anything further left may have been written by that client).
 */
export function clientIp(request: Request, server: PeerSource, trusted: IpRanges): string {
  const peer = peerAddress(request, server);
  if (peer === undefined) return UNKNOWN;
  if (!trusted.has(peer)) return peer;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "").split(",").map(addressOf).filter(Boolean);
  for (let i = forwarded.length - 1; i >= 0; i--) if (!trusted.has(forwarded[i])) return forwarded[i]!;
  return forwarded[0] ?? peer;
}

/**
 * True for a caller on this machine: the socket's peer is a loopback address and, when that peer is a trusted
 * proxy (one on the same host), so is the client it forwards for. No header alone makes a request local.
 */
export function isLocalRequest(request: Request, server: PeerSource, trusted: IpRanges): boolean {
  return isLoopback(peerAddress(request, server)) && isLoopback(clientIp(request, server, trusted));
}

/** True when the client reached us over HTTPS: directly, or through a trusted proxy that says so. */
export function requestIsHttps(request: Request, server: PeerSource, trusted: IpRanges): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return forwardedHeader(request, server, trusted, "x-forwarded-proto")?.toLowerCase() === "https";
}

/** The first value of an X-Forwarded-* header, only when a trusted proxy sent it. */
export function forwardedHeader(
  request: Request,
  server: PeerSource,
  trusted: IpRanges,
  name: `x-forwarded-${string}`,
): string | undefined {
  if (!viaTrustedProxy(request, server, trusted)) return undefined;
  return request.headers.get(name)?.split(",")[0]?.trim() || undefined;
}

/** An X-Forwarded-For entry's address: some proxies write `[v6]`, `[v6]:port` or `v4:port`. */
function addressOf(entry: string): string {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  return /^[\d.]+:\d+$/.test(text) ? text.slice(0, text.lastIndexOf(":")) : text;
}
