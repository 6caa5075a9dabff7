import { sql } from "drizzle-orm";
import { rowsOf } from "../db/client";
import { Elysia } from "elysia";
import type { AppDeps } from "../deps";
import { AppError } from "../errors";
import { isLocalRequest, type PeerSource } from "../http/client-ip";
import { countConnectionsByStatus } from "../modules/connections/service";
import { sameBytes } from "../shared/constant-time";
import { version } from "../../package.json";

/**
 * GET /health: the database and the connections' states (counts only, nothing secret), and which node answered
 * when several share the database; 503 when the database does not answer. GET /metrics: Prometheus text, for
 * `METRICS_TOKEN` as a Bearer token, or without a token only from this machine: the socket's peer is a loopback
 * address and, when it is a trusted proxy on this host, so is the client it forwards for. Every request's duration feeds the latency histogram.
 */
export function monitoringRoutes(deps: AppDeps) {
  const started = new WeakMap<Request, number>();
  return new Elysia({ name: "monitoring" })
    .onRequest(({ request }) => {
      started.set(request, performance.now());
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      const at = started.get(request);
      if (at !== undefined)
        deps.metrics.observeRequest(request.method, Number(set.status) || 200, (performance.now() - at) / 1000);
    })
    .get("/health", async ({ set }) => {
      try {
        await rowsOf(deps.db, sql`SELECT 1`);
      } catch {
        set.status = 503;
        return { status: "error", version, database: "unavailable" };
      }
      const connections = Object.fromEntries((await countConnectionsByStatus(deps.db)).map((c) => [c.status, c.count]));
      return { status: "ok", version, database: "ok", connections, ...(deps.nodeId ? { node: deps.nodeId } : {}) };
    })
    .get("/metrics", async ({ request, server, set }) => {
      if (!mayScrape(request, server, deps)) throw new AppError("ERR_NO_PERMISSION", 403);
      set.headers["content-type"] = "text/plain; version=0.0.4; charset=utf-8";
      return await deps.metrics.text();
    });
}

function mayScrape(request: Request, server: PeerSource, deps: AppDeps): boolean {
  const token = deps.config.metricsToken;
  if (token) {
    const given =
      request.headers
        .get("authorization")
        ?.match(/^Bearer\s+(.+)$/i)?.[1]
        ?.trim() ?? "";
    return sameBytes(given, token);
  }
  return isLocalRequest(request, server, deps.config.trustProxy);
}
