import type { Config } from "../config";
import { requestIsHttps } from "./client-ip";
import { addressedHost } from "./cross-site";

/**
 * Where browsers reach this server, for absolute links in answers: PUBLIC_URL when set, else the scheme and host
 * the request was addressed to (through trusted proxies).
 */
export function publicOrigin(request: Request, config: Pick<Config, "publicUrl" | "trustProxy">): string {
  if (config.publicUrl) return config.publicUrl;
  const scheme = requestIsHttps(request, config.trustProxy) ? "https" : "http";
  return `${scheme}://${addressedHost(request, config.trustProxy)}`;
}
