// @engine once
import { closeDatabase } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { version } from "../package.json";
import { createLogger } from "../src/log";
import { IpRanges } from "../src/shared/ip-ranges";
import { call, createSandboxConnection, fromPeer, makeTestApp } from "./helpers";

type Family = {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[];
};
const scrape = async (
  ctx: Awaited<ReturnType<typeof makeTestApp>>,
  headers: Record<string, string> = {},
  peer = "127.0.0.1",
) => {
  const res = await ctx.app.handle(fromPeer(new Request("http://localhost/metrics", { headers }), peer));
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
};
const family = (families: Family[], name: string) => families.find((f) => f.name === name)!;

describe("monitoring", () => {
  test("/health reports the version, the database and how many connections are in each status, without secrets", async () => {
    const ctx = await makeTestApp();
    await createSandboxConnection(ctx);
    await createSandboxConnection(ctx, { scan: false });
    const res = await call(ctx.app, "GET", "/health");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok", version, database: "ok", connections: { CONNECTED: 1, qrcode: 1 } });
  });

  test("/health answers 503 when the database does not", async () => {
    const ctx = await makeTestApp();
    await closeDatabase(ctx.db);
    const res = await call(ctx.app, "GET", "/health");
    expect(res).toMatchObject({ status: 503, json: { status: "error", database: "unavailable" } });
  });

  test("/metrics is Prometheus text a parser reads: connections, messages in and out, sockets, latency, memory", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    await ctx.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await call(ctx.app, "GET", "/health");
    // Durations are recorded once the response has gone out, a turn of the event loop later.
    await new Promise((resolve) => setImmediate(resolve));
    ctx.deps.metrics.countSocketsWith(() => 3);
    const res = await scrape(ctx);
    expect(res.status).toBe(200);
    expect(res.type).toStartWith("text/plain; version=0.0.4");
    const families = parsePrometheusTextFormat(res.text) as Family[];
    expect(family(families, "zapdesk_build_info").metrics[0]!.labels).toEqual({ version });
    expect(family(families, "zapdesk_connections").metrics).toEqual([{ value: "1", labels: { status: "CONNECTED" } }]);
    expect(family(families, "zapdesk_messages_total").metrics).toEqual([{ value: "1", labels: { direction: "in" } }]);
    expect(family(families, "zapdesk_websocket_clients").metrics[0]!.value).toBe("3");
    const latency = family(families, "zapdesk_http_request_duration_seconds");
    expect(latency.type).toBe("HISTOGRAM");
    expect(latency.metrics.some((m) => Number(m.buckets?.["+Inf"]) >= 1 && "0.1" in (m.buckets ?? {}))).toBe(true);
    expect(res.text).toContain('zapdesk_http_request_duration_seconds_count{method="GET",status="2xx"} 1');
    expect(Number(family(families, "process_resident_memory_bytes").metrics[0]!.value)).toBeGreaterThan(1_000_000);
  });

  test("/metrics refuses callers from outside this machine, and with METRICS_TOKEN asks for that token", async () => {
    const open = await makeTestApp();
    expect((await scrape(open)).status).toBe(200);
    expect((await scrape(open, {}, "::1")).status).toBe(200);
    expect((await scrape(open, {}, "203.0.113.9")).status).toBe(403);
    // Through a proxy on this machine: the client it forwards for decides.
    expect((await scrape(open, { "x-forwarded-for": "203.0.113.9" })).status).toBe(403);
    expect((await scrape(open, { "x-forwarded-for": "127.0.0.1" })).status).toBe(200);
    const locked = await makeTestApp({ metricsToken: "scrape-me" });
    expect((await scrape(locked)).status).toBe(403);
    expect((await scrape(locked, { authorization: "Bearer wrong-one" })).status).toBe(403);
    expect((await scrape(locked, { authorization: "Bearer scrape-me", "x-forwarded-for": "203.0.113.9" })).status).toBe(
      200,
    );
  });

  test("/metrics refuses a non-local peer even with X-Forwarded-For: 127.0.0.1", async () => {
    const ctx = await makeTestApp();
    expect((await scrape(ctx, { "x-forwarded-for": "127.0.0.1" }, "203.0.113.9")).status).toBe(403);
    expect((await scrape(ctx, { "x-forwarded-for": "::1" }, "::ffff:203.0.113.9")).status).toBe(403);
    // A trusted proxy elsewhere on the network vouches for its clients' addresses, not for being this machine.
    const behindLan = await makeTestApp({ trustProxy: IpRanges.of("10.0.0.0/8") });
    expect((await scrape(behindLan, { "x-forwarded-for": "127.0.0.1" }, "10.0.0.5")).status).toBe(403);
  });

  test("/metrics refuses a request whose peer is not known", async () => {
    const ctx = await makeTestApp();
    Object.assign(ctx.app, { server: null });
    expect((await scrape(ctx)).status).toBe(403);
  });

  test("LOG_FORMAT=json writes one JSON object per line", () => {
    const lines: string[] = [];
    createLogger("info", (l) => lines.push(l), "json").warn("connection lost", {
      whatsappId: 3,
      error: new Error("boom"),
    });
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({
      level: "warn",
      msg: "connection lost",
      whatsappId: 3,
      error: { name: "Error", message: "boom" },
    });
    expect(Date.parse(entry.time)).not.toBeNaN();
  });
});
