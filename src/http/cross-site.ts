import type { IpRanges } from "../shared/ip-ranges";
import { forwardedHeader, type PeerSource } from "./client-ip";

/**
 * True when a browser sent this request from a page of another site. Browsers say so in Sec-Fetch-Site; older
 * ones only send Origin, compared with the host the request was addressed to. Requests with neither header
 * (curl, scripts) come from no page at all and pass.
 */
export function isCrossSite(request: Request, server: PeerSource, trustedProxies: IpRanges): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  try {
    return new URL(origin).host !== addressedHost(request, server, trustedProxies);
  } catch {
    // `Origin: null` (sandboxed frames, local files) is never our page.
    return true;
  }
}

/**
 * True when the page is on another site, not merely on another origin of the same site (another port or
 * subdomain), whose requests carry SameSite=Lax cookies. Without Sec-Fetch-Site any other origin counts.
 */
export function isOtherSite(request: Request, server: PeerSource, trustedProxies: IpRanges): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "cross-site";
  return isCrossSite(request, server, trustedProxies);
}

/** The host (and port) the client addressed: the one a trusted proxy forwarded, else Host. */
export function addressedHost(request: Request, server: PeerSource, trustedProxies: IpRanges): string {
  return (
    forwardedHeader(request, server, trustedProxies, "x-forwarded-host") ||
    request.headers.get("host") ||
    new URL(request.url).host
  );
}
