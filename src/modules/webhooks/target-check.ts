import type { AppDeps } from "../../deps";
import type { HostResolver } from "../../http/host-resolver";
import { isInternalAddress } from "../../http/internal-address";
import { AppError } from "../../errors";

/** What decides where webhooks may go: how names resolve, and whether internal targets are allowed anyway. */
export interface TargetPolicy {
  resolver: HostResolver;
  /** WEBHOOK_ALLOW_PRIVATE: internal targets are allowed, and a URL is fetched as it is. */
  allowPrivate: boolean;
}

export function targetPolicy(deps: Pick<AppDeps, "config" | "resolver">): TargetPolicy {
  return { resolver: deps.resolver, allowPrivate: deps.config.webhookAllowPrivate };
}

/**
 * Where one attempt connects. A URL naming a host is pinned to the address that was checked: it is fetched at
 * that address with the name kept in `Host` and, over https, as the TLS server name the certificate must match,
 * so a second DNS answer (rebinding) cannot send the request elsewhere.
 */
export interface Connection {
  url: string;
  host?: string;
  serverName?: string;
}

export type TargetCheck =
  | { ok: true; connection: Connection }
  | { ok: false; reason: "internal" }
  | { ok: false; reason: "unresolved"; error: string };

/**
 * Checks a webhook URL's target: refused when the host, or ANY address its name resolves to, is inside (see
 * `isInternalAddress`, this machine's own addresses included), unless the policy allows that.
 */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<TargetCheck> {
  if (policy.allowPrivate) return { ok: true, connection: { url: url.href } };
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  // node:net with its streams is loaded here, at the first check, not by every server at start.
  const { isIP } = await import("node:net");
  const own = policy.resolver.ownAddresses();
  if (isIP(hostname))
    return isInternalAddress(hostname, own)
      ? { ok: false, reason: "internal" }
      : { ok: true, connection: { url: url.href } };
  if (isLocalhostName(hostname)) return { ok: false, reason: "internal" };
  let addresses: string[];
  try {
    addresses = await policy.resolver.lookup(hostname);
  } catch (error) {
    return { ok: false, reason: "unresolved", error: error instanceof Error ? error.message : "name not resolved" };
  }
  if (!addresses.length) return { ok: false, reason: "unresolved", error: "name not resolved" };
  if (addresses.some((address) => isInternalAddress(address, own))) return { ok: false, reason: "internal" };
  // IPv4 first: a server without an IPv6 route still reaches a receiver that has both.
  const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0]!;
  return { ok: true, connection: pinned(url, address, isIP(address) === 6) };
}

/**
 * At creation and update: a target inside is refused with ERR_WEBHOOK_URL_PRIVATE. A name that does not resolve
 * (yet) is accepted; every delivery checks again.
 */
export async function assertPublicTarget(url: string, policy: TargetPolicy) {
  const check = await checkTarget(new URL(url), policy);
  if (!check.ok && check.reason === "internal") throw new AppError("ERR_WEBHOOK_URL_PRIVATE");
}

/** `localhost` and its subdomains are this machine by definition (RFC 6761), whatever a resolver says. */
function isLocalhostName(hostname: string) {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

function pinned(url: URL, address: string, ipv6: boolean): Connection {
  const direct = new URL(url.href);
  direct.hostname = ipv6 ? `[${address}]` : address;
  const serverName = url.protocol === "https:" ? url.hostname.replace(/\.$/, "") : undefined;
  return { url: direct.href, host: url.host, serverName };
}
