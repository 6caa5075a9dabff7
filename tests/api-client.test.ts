import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { api, ApiError, callApi, setToken } from "../islands/lib/api";

type Call = { url: string; auth: string | null };
let calls: Call[];
let sent: { url: string; method?: string; body?: unknown }[];
let answers: (() => Response)[];
const realFetch = globalThis.fetch;
const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
let assigned: string[];

beforeEach(() => {
  calls = [];
  sent = [];
  assigned = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ url: String(input), auth: headers.authorization ?? null });
    sent.push({ url: String(input), method: init?.method, body: init?.body ?? undefined });
    return answers.shift()!();
  }) as typeof fetch;
  (globalThis as { location?: unknown }).location = { pathname: "/tickets", assign: (to: string) => assigned.push(to) };
});

afterEach(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { location?: unknown }).location;
});

describe("browser API client", () => {
  test("an expired token (403 ERR_SESSION_EXPIRED) is refreshed once and the request retried with the new token", async () => {
    setToken("old");
    answers = [json(403, { error: "ERR_SESSION_EXPIRED" }), json(200, { token: "new" }), json(200, { ok: 1 })];
    expect(await api("/tickets")).toEqual({ ok: 1 });
    expect(calls).toEqual([
      { url: "/api/tickets", auth: "Bearer old" },
      { url: "/api/auth/refresh_token", auth: null },
      { url: "/api/tickets", auth: "Bearer new" },
    ]);
    expect(assigned).toEqual([]);
  });

  test("a refresh refused with 401 logs out locally and goes to /login", async () => {
    setToken("old");
    answers = [json(403, { error: "ERR_SESSION_EXPIRED" }), json(401, { error: "ERR_SESSION_EXPIRED" })];
    await expect(api("/tickets")).rejects.toBeInstanceOf(ApiError);
    expect(assigned).toEqual(["/login"]);
  });

  test("M3: tabs refresh one at a time, holding the browser lock, so no tab sends a cookie another just replaced", async () => {
    setToken("old");
    answers = [json(403, { error: "ERR_SESSION_EXPIRED" }), json(200, { token: "new" }), json(200, { ok: 1 })];
    const held: string[] = [];
    const nav = globalThis.navigator as { locks?: unknown };
    const before = Object.getOwnPropertyDescriptor(nav, "locks");
    Object.defineProperty(nav, "locks", {
      configurable: true,
      value: {
        async request(name: string, job: () => Promise<unknown>) {
          held.push(name);
          const result = await job();
          held.push(`${name} released after ${calls.length} calls`);
          return result;
        },
      },
    });
    try {
      expect(await api("/tickets")).toEqual({ ok: 1 });
    } finally {
      if (before) Object.defineProperty(nav, "locks", before);
      else delete nav.locks;
    }
    expect(held).toEqual(["zapdesk-refresh", "zapdesk-refresh released after 2 calls"]);
    expect(calls.map((c) => c.url)).toEqual(["/api/tickets", "/api/auth/refresh_token", "/api/tickets"]);
  });

  test("callApi sends a contract route as api would: parameters in the path, query fields in order, the body as JSON", async () => {
    setToken("t");
    answers = [json(200, { id: 7 }), json(200, { tickets: [] }), json(200, { url: "/x" })];
    await callApi("PUT /tickets/:id", { params: { id: 7 }, body: { status: "open", userId: null } });
    await callApi("GET /tickets", { query: { pageNumber: 2, showAll: true, status: undefined, queueIds: [1, 2] } });
    await callApi("POST /backups/:name/link", { params: { name: "a b.sqlite" } });
    expect(sent).toEqual([
      { url: "/api/tickets/7", method: "PUT", body: '{"status":"open","userId":null}' },
      { url: "/api/tickets?pageNumber=2&showAll=true&queueIds=%5B1%2C2%5D", method: "GET", body: undefined },
      { url: "/api/backups/a%20b.sqlite/link", method: "POST", body: undefined },
    ]);
  });

  test("a 401 goes to /login and a 403 ERR_NO_PERMISSION is not retried", async () => {
    setToken("t");
    answers = [json(401, { error: "ERR_SESSION_EXPIRED" })];
    await expect(api("/tickets")).rejects.toBeInstanceOf(ApiError);
    expect(assigned).toEqual(["/login"]);
    answers = [json(403, { error: "ERR_NO_PERMISSION" })];
    const refused = await api("/settings").catch((e) => e);
    expect(refused).toMatchObject({ status: 403, code: "ERR_NO_PERMISSION" });
    expect(calls.filter((c) => c.url.includes("refresh"))).toHaveLength(0);
  });
  describe("when the server says the user sent too many requests", () => {
    const busy = (retryAfter: string) => () =>
      new Response(JSON.stringify({ error: "ERR_TOO_MANY_REQUESTS" }), {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": retryAfter },
      });
    let waits: number[];
    const realSetTimeout = globalThis.setTimeout;
    beforeEach(() => {
      waits = [];
      globalThis.setTimeout = ((run: () => void, ms: number) => {
        waits.push(ms);
        return realSetTimeout(run, 0);
      }) as typeof setTimeout;
    });
    afterEach(() => {
      globalThis.setTimeout = realSetTimeout;
    });

    test("the request is sent again after Retry-After, body and all", async () => {
      setToken("t");
      answers = [busy("2"), busy("1"), json(200, { ok: 1 })];
      expect(await api("/tickets", { method: "POST", body: { a: 1 } })).toEqual({ ok: 1 });
      expect(waits).toEqual([2000, 1000]);
      expect(calls.map((c) => c.url)).toEqual(["/api/tickets", "/api/tickets", "/api/tickets"]);
    });

    test("after three retries the refusal reaches the caller; other 429s are not retried", async () => {
      setToken("t");
      answers = [busy("1"), busy("1"), busy("1"), busy("1")];
      expect(await api("/tickets").catch((e) => e)).toMatchObject({ status: 429, code: "ERR_TOO_MANY_REQUESTS" });
      expect(calls).toHaveLength(4);
      calls = [];
      answers = [json(429, { error: "ERR_TOO_MANY_ATTEMPTS" })];
      expect(await api("/users/1", { method: "PUT" }).catch((e) => e)).toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
      expect(calls).toHaveLength(1);
    });
  });
});
