import { Elysia } from "elysia";
import type { Config } from "../config";

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const DEFAULT_HEADERS = "authorization, content-type";
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

/** True when `origin` is one of CORS_ORIGINS: a page there may call the API with the user's credentials. */
export function isAllowedOrigin(config: Pick<Config, "corsOrigins">, origin: string | null | undefined): boolean {
  return !!origin && config.corsOrigins.includes(origin);
}

/**
 * Cross-origin access to /api for the origins listed in CORS_ORIGINS, and for them only: their preflights are
 * answered (204 with the allowed methods and headers), and every answer to them, errors included, names the
 * origin and allows credentials (the refresh cookie). Other origins get no CORS header at all, so their pages
 * cannot read anything; with no origin listed nothing changes for same-origin callers.
 */
export function cors(config: Pick<Config, "corsOrigins">) {
  return new Elysia({ name: "cors" }).onRequest(({ request, set }) => {
    if (config.corsOrigins.length === 0 || !new URL(request.url).pathname.startsWith("/api/")) return;
    set.headers.vary = "Origin";
    const origin = request.headers.get("origin");
    if (!isAllowedOrigin(config, origin)) return;
    set.headers["access-control-allow-origin"] = origin!;
    set.headers["access-control-allow-credentials"] = "true";
    if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return;
    return new Response(null, {
      status: 204,
      headers: {
        ...(set.headers as Record<string, string>),
        "access-control-allow-methods": ALLOWED_METHODS,
        "access-control-allow-headers": requestedHeaders(request) ?? DEFAULT_HEADERS,
        "access-control-max-age": PREFLIGHT_MAX_AGE,
      },
    });
  });
}

/** The headers a preflight asks for, when they are plain header names (anything else falls back to the defaults). */
function requestedHeaders(request: Request): string | undefined {
  const asked = request.headers.get("access-control-request-headers")?.trim();
  return asked && /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/.test(asked) ? asked : undefined;
}
