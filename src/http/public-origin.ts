import type { Config } from "../config";
import { type PeerSource, requestIsHttps } from "./client-ip";
import { addressedHost } from "./cross-site";

/**
 * Where browsers reach this server, for absolute links in answers: PUBLIC_URL when set; for a page of our own
 * origin, the origin its browser names in Referer (right even behind a proxy not listed in TRUST_PROXY, where
 * the request itself may look like plain HTTP); else the scheme and host the request was addressed to.
 */
export function publicOrigin(
  request: Request,
  server: PeerSource,
  config: Pick<Config, "publicUrl" | "trustProxy">,
): string {
  if (config.publicUrl) return config.publicUrl;
  const seen = request.headers.get("sec-fetch-site") === "same-origin" ? refererOrigin(request) : undefined;
  if (seen) return seen;
  const scheme = requestIsHttps(request, server, config.trustProxy) ? "https" : "http";
  return `${scheme}://${addressedHost(request, server, config.trustProxy)}`;
}

function refererOrigin(request: Request): string | undefined {
  const referer = URL.parse(request.headers.get("referer") ?? "");
  return referer && (referer.protocol === "https:" || referer.protocol === "http:") ? referer.origin : undefined;
}

/** Where the start log says the server listens: the address it bound (every address for 0.0.0.0 or ::), and PUBLIC_URL. */
export function listeningOn(hostname: string, port: number, publicUrl?: string): string {
  const every = hostname === "0.0.0.0" || hostname === "::";
  const bound = every
    ? `port ${port} on every address of this machine`
    : `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  return publicUrl ? `${bound}, reached at ${publicUrl}` : bound;
}
