/** What Bun's server says about a request's peer (absent under `app.handle` in tests). */
export type PeerSource = { requestIP(request: Request): { address: string } | null } | null | undefined;

/**
 * The client's address. Without trusted proxies it is the socket's peer. Behind `hops` proxies it is read from
 * X-Forwarded-For from the right: the peer counts as the last proxy, every proxy appends the address it saw,
 * so the entry `hops` places left of the peer is the first one no trusted proxy wrote, and anything a client
 * put further left is ignored.
 */
export function clientIp(request: Request, server: PeerSource, hops: number): string {
  const peer = server?.requestIP(request)?.address ?? "local";
  if (hops <= 0) return peer;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

/** True when the client reached us over HTTPS: directly, or through a trusted proxy that says so. */
export function requestIsHttps(request: Request, hops: number): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  if (hops <= 0) return false;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https";
}
