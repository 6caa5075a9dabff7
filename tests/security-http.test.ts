// @engine once
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../src/config";
import { contacts, tickets } from "../src/db/tables";
import { clientIp, isLocalRequest, requestIsHttps } from "../src/http/client-ip";
import { IpRanges, LOOPBACK } from "../src/shared/ip-ranges";
import {
  BASE,
  call,
  createSandboxConnection,
  createUser,
  fromPeer,
  loginAs,
  makeTestApp,
  type TestContext,
} from "./helpers";

const MB = 1024 * 1024;

/** A body that keeps producing `chunk`-sized pieces until 80 MB, counting how much was pulled from it. */
function streamingBody(pulled: { bytes: number }, chunk = 256 * 1024) {
  const piece = new Uint8Array(chunk).fill(0x20);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= 80 * MB) return controller.close();
      pulled.bytes += chunk;
      controller.enqueue(piece);
    },
  });
}

function post(ctx: TestContext, path: string, body: BodyInit, headers: Record<string, string>) {
  return ctx.app.handle(new Request(BASE + path, { method: "POST", headers, body, duplex: "half" } as RequestInit));
}

describe("request bodies are limited per route before they are read", () => {
  test("H1: an anonymous 80 MB body to a large route is refused with 401 after at most one chunk is read", async () => {
    const ctx = await makeTestApp();
    const pulled = { bytes: 0 };
    const res = await post(ctx, "/api/bulkMessage", streamingBody(pulled), { "content-type": "application/json" });
    expect(res.status).toBe(401);
    expect(pulled.bytes).toBeLessThanOrEqual(256 * 1024);
  });

  test("H1: an 80 MB body without a length is cut off once it passes the small limit (413)", async () => {
    const ctx = await makeTestApp();
    const pulled = { bytes: 0 };
    const res = await post(ctx, "/api/auth/login", streamingBody(pulled), { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE", message: "This request is too large." });
    expect(pulled.bytes).toBeLessThanOrEqual(MB);
  });

  test("H1: a declared Content-Length above the limit is refused without reading anything", async () => {
    const ctx = await makeTestApp();
    const pulled = { bytes: 0 };
    const res = await post(ctx, "/api/auth/login", streamingBody(pulled), {
      "content-type": "application/json",
      "content-length": String(80 * MB),
    });
    expect(res.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(256 * 1024);
  });

  test("H1: a signed-in 1 MB JSON body to a small route is 413 ERR_PAYLOAD_TOO_LARGE", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const res = await call(ctx.app, "POST", "/api/tags", { token, body: { name: "x".repeat(MB), color: "#123456" } });
    expect(res).toMatchObject({ status: 413, json: { error: "ERR_PAYLOAD_TOO_LARGE" } });
  });

  test("H1: a large route reads big bodies only from callers with its permission", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    const pulled = { bytes: 0 };
    const res = await post(ctx, "/api/bulkMessage", streamingBody(pulled), {
      "content-type": "application/json",
      authorization: `Bearer ${agent.token}`,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    expect(pulled.bytes).toBeLessThanOrEqual(256 * 1024);
  });

  test("H1: a media upload still works, and one above MAX_MEDIA_MB is 413", async () => {
    const ctx = await makeTestApp({ maxMediaMb: 1 });
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const contact = await one(ctx.db.insert(contacts).values({ name: "Lia", number: "5531999990001" }).returning());
    const ticket = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "open", userId: user.id, whatsappId: wa.id })
        .returning(),
    );
    const upload = (bytes: Uint8Array) => {
      const form = new FormData();
      form.append("medias", new File([bytes as Uint8Array<ArrayBuffer>], "photo.png", { type: "image/png" }));
      return ctx.app.handle(
        new Request(`${BASE}/api/messages/${ticket.id}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: form,
        }),
      );
    };
    const png = new Uint8Array(300 * 1024);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await upload(png)).status).toBe(200);
    const tooBig = await upload(new Uint8Array(2 * MB + 1));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE", message: "This request is too large." });
  });

  test("H1: the JSON text of a panel message is read within its limit too", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const res = await call(ctx.app, "POST", "/api/messages/1", { token, body: { body: "y".repeat(MB) } });
    expect(res).toMatchObject({ status: 413, json: { error: "ERR_PAYLOAD_TOO_LARGE" } });
  });
});

describe("auth routes only take JSON from our own pages", () => {
  const login = (ctx: TestContext, headers: Record<string, string>, body: string) =>
    post(ctx, "/api/auth/login", body, headers);

  test("M4: a urlencoded form post to login is refused with 415 and sets no cookie", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const res = await login(
      ctx,
      { "content-type": "application/x-www-form-urlencoded" },
      `email=${encodeURIComponent(user.email)}&password=${user.password}`,
    );
    expect(res.status).toBe(415);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("M4: a login from another site's page is refused with 403, by Sec-Fetch-Site or by Origin", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const body = JSON.stringify({ email: user.email, password: user.password });
    const json = { "content-type": "application/json" };
    expect(
      (await login(ctx, { ...json, "sec-fetch-site": "cross-site", origin: "https://evil.example" }, body)).status,
    ).toBe(403);
    expect((await login(ctx, { ...json, "sec-fetch-site": "same-site" }, body)).status).toBe(403);
    expect((await login(ctx, { ...json, origin: "https://evil.example" }, body)).status).toBe(403);
    expect((await login(ctx, { ...json, origin: "null" }, body)).status).toBe(403);
    const signup = await post(
      ctx,
      "/api/auth/signup",
      JSON.stringify({ name: "Eve", email: "eve@example.com", password: "12345" }),
      { ...json, origin: "https://evil.example" },
    );
    expect(signup.status).toBe(403);
  });

  test("same-origin pages and clients without an Origin (curl) still log in", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const body = JSON.stringify({ email: user.email, password: user.password });
    const json = { "content-type": "application/json" };
    expect(
      (await login(ctx, { ...json, "sec-fetch-site": "same-origin", origin: "http://localhost" }, body)).status,
    ).toBe(200);
    expect((await login(ctx, { ...json, origin: "http://localhost" }, body)).status).toBe(200);
    expect((await login(ctx, json, body)).status).toBe(200);
  });
});

describe("client address behind proxies", () => {
  const peer = (address: string) => ({ requestIP: () => ({ address }) });
  const withForwarded = (value: string) => new Request(BASE, { headers: { "x-forwarded-for": value } });
  const proxies = IpRanges.of("10.0.0.0/8", "fd00::/8");

  test("behind a trusted proxy the client address is the first untrusted X-Forwarded-For entry from the right", () => {
    expect(clientIp(withForwarded("6.6.6.6, 203.0.113.7"), peer("10.0.0.1"), proxies)).toBe("203.0.113.7");
    expect(clientIp(withForwarded("6.6.6.6, 203.0.113.7, 10.0.0.2"), peer("10.0.0.1"), proxies)).toBe("203.0.113.7");
    expect(clientIp(withForwarded("2001:db8::7, fd00::2"), peer("fd00::1"), proxies)).toBe("2001:db8::7");
    expect(clientIp(withForwarded("6.6.6.6, [2001:db8::7]:4711"), peer("10.0.0.1"), proxies)).toBe("2001:db8::7");
    expect(clientIp(withForwarded("203.0.113.7:4711"), peer("::ffff:10.0.0.1"), proxies)).toBe("203.0.113.7");
    // Only proxies on the way: the furthest one is the client; without the header, the peer itself is.
    expect(clientIp(withForwarded("10.0.0.3, 10.0.0.2"), peer("10.0.0.1"), proxies)).toBe("10.0.0.3");
    expect(clientIp(new Request(BASE), peer("10.0.0.1"), proxies)).toBe("10.0.0.1");
  });

  test("a spoofed X-Forwarded-For from a peer that is not a trusted proxy is ignored", () => {
    expect(clientIp(withForwarded("127.0.0.1"), peer("198.51.100.4"), proxies)).toBe("198.51.100.4");
    expect(clientIp(withForwarded("203.0.113.7"), peer("127.0.0.1"), IpRanges.none)).toBe("127.0.0.1");
    expect(isLocalRequest(withForwarded("127.0.0.1"), peer("198.51.100.4"), LOOPBACK)).toBe(false);
  });

  test("a request whose peer is not known is neither local nor forwarded by a trusted proxy", () => {
    const request = new Request(BASE, { headers: { "x-forwarded-for": "127.0.0.1", "x-forwarded-proto": "https" } });
    expect(clientIp(request, undefined, LOOPBACK)).toBe("unknown");
    expect(isLocalRequest(request, undefined, LOOPBACK)).toBe(false);
    expect(requestIsHttps(request, null, LOOPBACK)).toBe(false);
  });

  /**
   * Wrong passwords for 60 accounts, each sent with the X-Forwarded-For `forwarded(i)` (from `peer`), then one more
   * for the first account: its status. Past the cap of the address they were counted against, that account
   * waits after its one failure (429); counted against 60 addresses, it would not.
   */
  async function oneMoreAfterSixtyGuesses(forwarded: (i: number) => string, peer?: string) {
    const ctx = await makeTestApp();
    const users = await Promise.all(Array.from({ length: 60 }, () => createUser(ctx)));
    const guess = (email: string, i: number) =>
      call(ctx.app, "POST", "/api/auth/login", {
        body: { email, password: `wrong-${i}` },
        headers: { "x-forwarded-for": forwarded(i) },
        ...(peer ? { peer } : {}),
      });
    for (const [i, user] of users.entries()) expect((await guess(user.email, i)).status).toBe(401);
    return (await guess(users[0]!.email, 99)).status;
  }

  test("rotating a forged left X-Forwarded-For entry does not escape the per-address login limit", async () => {
    expect(await oneMoreAfterSixtyGuesses((i) => `10.${i}.0.1, 203.0.113.7`)).toBe(429);
  });

  test("a client reaching the port directly cannot escape the per-address login limit with X-Forwarded-For", async () => {
    expect(await oneMoreAfterSixtyGuesses((i) => `127.0.${i}.1`, "198.51.100.4")).toBe(429);
  });

  test("TRUST_PROXY accepts addresses and CIDRs, IPv4 and IPv6; true means this machine, false or empty none", () => {
    const dataDir = `/tmp/zapdesk-config-${process.pid}`;
    const trusted = (value?: string) => loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: value }).trustProxy;
    const listed = trusted(" 127.0.0.1, 10.0.0.0/8 ,2001:db8::/32,::1 ");
    for (const address of ["127.0.0.1", "::ffff:127.0.0.1", "10.200.3.4", "::ffff:10.0.0.9", "2001:db8:5::1", "::1"])
      expect({ address, trusted: listed.has(address) }).toEqual({ address, trusted: true });
    for (const address of ["127.0.0.2", "11.0.0.1", "2001:db9::1", "::2", "", "unknown"])
      expect({ address, trusted: listed.has(address) }).toEqual({ address, trusted: false });
    expect(["127.9.0.1", "::1", "::ffff:127.0.0.1"].every((a) => trusted("true").has(a))).toBe(true);
    expect(trusted("true").has("10.0.0.1")).toBe(false);
    for (const none of [undefined, "", "false", "0"]) expect(trusted(none).isEmpty).toBe(true);
    for (const wrong of ["yes", "10.0.0.0/33", "10.0.0.256", "proxy.example.com", "1.2.3.4,,"])
      expect(() => trusted(wrong)).toThrow("TRUST_PROXY must list the proxies' addresses");
  });

  test("TRUST_PROXY as a number of proxies, the former format, means this machine or a private network, with a warning", () => {
    const config = loadConfig({ DATA_DIR: `/tmp/zapdesk-config-${process.pid}`, TRUST_PROXY: "1" });
    for (const address of ["127.0.0.1", "::1", "172.18.0.2", "192.168.1.10", "10.1.2.3", "fd12::1"])
      expect({ address, trusted: config.trustProxy.has(address) }).toEqual({ address, trusted: true });
    expect(config.trustProxy.has("203.0.113.7")).toBe(false);
    expect(config.warnings).toEqual([expect.stringContaining("Set TRUST_PROXY to the proxies' addresses")]);
    expect(loadConfig({ DATA_DIR: `/tmp/zapdesk-config-${process.pid}`, TRUST_PROXY: "true" }).warnings).toEqual([]);
  });
});

describe("browser protections on every answer", () => {
  test("L1: pages, API answers, errors and unknown paths carry CSP, frame-ancestors, nosniff and Referrer-Policy", async () => {
    const ctx = await makeTestApp();
    for (const path of ["/login", "/api/settings", "/health", "/no-such-page", "/tickets"]) {
      const res = await ctx.app.handle(new Request(BASE + path));
      const csp = res.headers.get("content-security-policy") ?? "";
      expect({ path, csp }).toEqual({ path, csp: expect.stringContaining("frame-ancestors 'none'") });
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
    }
  });

  test("L2: the refresh cookie is Secure when the request came over HTTPS, directly or through a trusted proxy", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const login = (url: string, headers: Record<string, string> = {}, peer = "127.0.0.1") =>
      ctx.app.handle(
        fromPeer(
          new Request(url, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify({ email: user.email, password: user.password }),
          }),
          peer,
        ),
      );
    expect((await login("https://zapdesk.example/api/auth/login")).headers.get("set-cookie")).toContain("Secure");
    expect(
      (await login(`${BASE}/api/auth/login`, { "x-forwarded-proto": "https" })).headers.get("set-cookie"),
    ).toContain("Secure");
    expect((await login(`${BASE}/api/auth/login`)).headers.get("set-cookie")).not.toContain("Secure");
    // The same header from a client that reached the port directly is its own word.
    expect(
      (await login(`${BASE}/api/auth/login`, { "x-forwarded-proto": "https" }, "198.51.100.4")).headers.get(
        "set-cookie",
      ),
    ).not.toContain("Secure");
  });

  test("without a trusted proxy a client's X-Forwarded-Proto is ignored", async () => {
    const ctx = await makeTestApp({ trustProxy: IpRanges.none });
    const user = await createUser(ctx);
    const res = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(res.headers.get("set-cookie")).not.toContain("Secure");
  });
});

describe("odd input gets a 400, never a 500", () => {
  test("L6: ?date=+275760-09-13 and other out-of-range dates are 400 with the field", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    for (const date of ["+275760-09-13", "-000001-01-01", "1900-01-01", "2101-01-01", "9999-12-31T00:00:00Z"]) {
      for (const field of ["date", "updatedAt"]) {
        const res = await call(ctx.app, "GET", `/api/tickets?${field}=${encodeURIComponent(date)}`, { token });
        expect({ date, field, status: res.status, json: res.json }).toEqual({
          date,
          field,
          status: 400,
          json: { error: "VALIDATION", rule: "invalid", message: "Invalid value", field },
        });
      }
    }
    expect((await call(ctx.app, "GET", "/api/tickets?date=2024-05-01", { token })).status).toBe(200);
  });

  test("L6: a schedule's sendAt outside the accepted years is 400 Invalid date", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const contact = await one(ctx.db.insert(contacts).values({ name: "Lia", number: "5531999990002" }).returning());
    for (const sendAt of ["+275760-09-13T00:00:00Z", "9999-01-01T10:00", "2999-01-01T10:00:00Z"]) {
      const res = await call(ctx.app, "POST", "/api/schedules", {
        token,
        body: { body: "Hello there", contactId: contact.id, sendAt },
      });
      expect({ sendAt, status: res.status, json: res.json }).toEqual({
        sendAt,
        status: 400,
        json: { error: "VALIDATION", field: "sendAt", rule: "date", message: "Invalid date" },
      });
    }
  });

  test("L6: a deeply nested email on login and signup is 400 ERR_INVALID_BODY", async () => {
    const ctx = await makeTestApp();
    const nested = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    for (const path of ["/api/auth/login", "/api/auth/signup"]) {
      const res = await post(ctx, path, `{"name":"Ana","email":${nested},"password":"12345"}`, {
        "content-type": "application/json",
      });
      expect({ path, status: res.status, json: await res.json() }).toEqual({
        path,
        status: 400,
        json: { error: "ERR_INVALID_BODY", message: "The request could not be read." },
      });
    }
  });

  test("L6: JSON nested deeper than 32 levels is refused on any route, 32 levels still pass the parser", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const nest = (depth: number) => `${"[".repeat(depth - 1)}1${"]".repeat(depth - 1)}`;
    const tooDeep = await post(ctx, "/api/tags", `{"name":"VIP tag","color":${nest(33)}}`, {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
    });
    expect(tooDeep.status).toBe(400);
    expect(await tooDeep.json()).toEqual({ error: "ERR_INVALID_BODY", message: "The request could not be read." });
    const deepEnough = await post(ctx, "/api/tags", `{"name":"VIP tag","color":${nest(31)}}`, {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
    });
    expect(deepEnough.status).toBe(400);
    expect(await deepEnough.json()).toMatchObject({ field: "color" });
  });
});
