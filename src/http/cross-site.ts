/**
 * True when a browser sent this request from a page of another site. Browsers say so in Sec-Fetch-Site; older
 * ones only send Origin, compared with the host the request was addressed to. Requests with neither header
 * (curl, scripts) come from no page at all and pass.
 */
export function isCrossSite(request: Request, proxyHops: number): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  try {
    return new URL(origin).host !== addressedHost(request, proxyHops);
  } catch {
    // `Origin: null` (sandboxed frames, local files) is never our page.
    return true;
  }
}

/** The host (and port) the client addressed: the proxy's forwarded one when proxies are trusted, else Host. */
export function addressedHost(request: Request, proxyHops: number): string {
  const forwarded = proxyHops > 0 ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || request.headers.get("host") || new URL(request.url).host;
}
