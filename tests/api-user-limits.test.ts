// @engine once
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { type ApiUserLimits, loadConfig } from "../src/config";
import { errorHandler } from "../src/http/error-handler";
import { authContext } from "../src/modules/auth/plugin";
import { createTokens } from "../src/modules/auth/tokens";
import { getSetting } from "../src/modules/settings/service";
import { type Admission, HOLD_LIMIT_MS, UserRequestLimiter } from "../src/modules/auth/user-request-limiter";
import { BASE, call, loginAs, makeTestApp, type TestContext, TestClock } from "./helpers";

const limiterWith = (limits: Partial<ApiUserLimits>, clock = new TestClock()) =>
  new UserRequestLimiter({ inFlight: 0, perSecond: 0, burst: 0, ...limits }, () => clock.now());

function admitted(admission: Admission): () => void {
  if (!admission.admitted) throw new Error(`refused for ${admission.retryAfterMs} ms`);
  return admission.release;
}

/** Answers go out first; the request's slot is given back on the next turn of the event loop. */
const afterResponses = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Routes behind the same `auth` macro as the API's, on the same app deps (so the same limiter): `/api/hold` stays in
 * progress until `open()`, `/api/fail` throws.
 */
function routesWithHeldRequests(ctx: TestContext) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const app = new Elysia()
    .use(errorHandler(ctx.deps.log))
    .use(authContext(ctx.deps, createTokens(ctx.deps.config)))
    .get(
      "/api/hold",
      async () => {
        entered++;
        for (const waiter of waiters) if (entered >= waiter.count) waiter.resolve();
        await gate;
        return { ok: true };
      },
      { auth: true },
    )
    .get(
      "/api/fail",
      () => {
        throw new Error("the handler failed");
      },
      { auth: true },
    );
  const get = (path: string, token: string) =>
    app.handle(new Request(BASE + path, { headers: { authorization: `Bearer ${token}` } }));
  /** Resolves once `count` requests are inside the held route. */
  const inside = (count: number) =>
    new Promise<void>((resolve) => (entered >= count ? resolve() : waiters.push({ count, resolve })));
  return { get, open, inside };
}

describe("the limiter of one user's API requests", () => {
  test("requests beyond the in-flight limit are refused until one ends; ending one twice frees one slot", () => {
    const limiter = limiterWith({ inFlight: 2 });
    const first = admitted(limiter.admit(1));
    admitted(limiter.admit(1));
    expect(limiter.admit(1)).toEqual({ admitted: false, retryAfterMs: 1000 });
    first();
    first();
    admitted(limiter.admit(1));
    expect(limiter.admit(1).admitted).toBe(false);
  });

  test("a burst beyond the rate is refused with the time until the next request may start", () => {
    const clock = new TestClock();
    const limiter = limiterWith({ perSecond: 4, burst: 3 }, clock);
    for (let i = 0; i < 3; i++) admitted(limiter.admit(1))();
    expect(limiter.admit(1)).toEqual({ admitted: false, retryAfterMs: 250 });
    clock.advance(100);
    expect(limiter.admit(1)).toEqual({ admitted: false, retryAfterMs: 150 });
    clock.advance(150);
    admitted(limiter.admit(1));
    expect(limiter.admit(1).admitted).toBe(false);
  });

  test("a refused request takes no slot and spends nothing", () => {
    const clock = new TestClock();
    const limiter = limiterWith({ inFlight: 1, perSecond: 1, burst: 2 }, clock);
    const held = admitted(limiter.admit(1));
    for (let i = 0; i < 5; i++) expect(limiter.admit(1).admitted).toBe(false);
    held();
    admitted(limiter.admit(1))();
    expect(limiter.admit(1)).toEqual({ admitted: false, retryAfterMs: 1000 });
  });

  test("each user has limits of their own", () => {
    const limiter = limiterWith({ inFlight: 1, perSecond: 1, burst: 1 });
    admitted(limiter.admit(1));
    expect(limiter.admit(1).admitted).toBe(false);
    admitted(limiter.admit(2));
  });

  test("a request still counted after the hold limit is taken as finished, so a stuck handler cannot lock its user out", () => {
    const clock = new TestClock();
    const limiter = limiterWith({ inFlight: 1 }, clock);
    admitted(limiter.admit(1));
    clock.advance(HOLD_LIMIT_MS - 1);
    expect(limiter.admit(1).admitted).toBe(false);
    clock.advance(1);
    admitted(limiter.admit(1));
  });

  test("0 switches either limit off", () => {
    const limiter = limiterWith({ inFlight: 0, perSecond: 0 });
    for (let i = 0; i < 1000; i++) admitted(limiter.admit(1));
  });

  test("API_USER_CONCURRENCY and API_USER_RATE set the limits: by default 16 at once, 20 a second after 60", () => {
    const dataDir = `/tmp/zapdesk-config-${process.pid}`;
    expect(loadConfig({ DATA_DIR: dataDir }).apiUserLimits).toEqual({ inFlight: 16, perSecond: 20, burst: 60 });
    expect(loadConfig({ DATA_DIR: dataDir, API_USER_CONCURRENCY: "4", API_USER_RATE: "10" }).apiUserLimits).toEqual({
      inFlight: 4,
      perSecond: 10,
      burst: 30,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, API_USER_RATE: "fast" })).toThrow("API_USER_RATE");
  });
});

describe("per-user limits on the API", () => {
  test("one user with more requests in flight than allowed gets 429 with Retry-After while another user is served", async () => {
    const ctx = await makeTestApp({ apiUserLimits: { inFlight: 2, perSecond: 0, burst: 0 } });
    const busy = await loginAs(ctx);
    const other = await loginAs(ctx);
    const routes = routesWithHeldRequests(ctx);
    const held = [routes.get("/api/hold", busy.token), routes.get("/api/hold", busy.token)];
    await routes.inside(2);

    const refused = await call(ctx.app, "GET", "/api/tickets", { token: busy.token });
    expect(refused).toMatchObject({ status: 429, json: { error: "ERR_TOO_MANY_REQUESTS" } });
    expect(refused.json.message).toBe("Too many requests. Try again in a moment.");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await routes.get("/api/hold", busy.token)).status).toBe(429);
    expect((await call(ctx.app, "GET", "/api/tickets", { token: other.token })).status).toBe(200);
    expect((await call(ctx.app, "GET", "/health")).status).toBe(200);
    expect((await ctx.app.handle(new Request(`${BASE}/login`))).status).toBe(200);

    routes.open();
    expect((await Promise.all(held)).map((res) => res.status)).toEqual([200, 200]);
    await afterResponses();
    expect((await call(ctx.app, "GET", "/api/tickets", { token: busy.token })).status).toBe(200);
  });

  test("a user's burst beyond the rate gets 429 and is served again after the refill (injected clock)", async () => {
    const ctx = await makeTestApp({ apiUserLimits: { inFlight: 0, perSecond: 2, burst: 3 } });
    const { token } = await loginAs(ctx);
    const other = await loginAs(ctx);
    const tickets = () => call(ctx.app, "GET", "/api/tickets", { token });
    for (let i = 0; i < 3; i++) expect((await tickets()).status).toBe(200);
    const refused = await tickets();
    expect(refused).toMatchObject({ status: 429, json: { error: "ERR_TOO_MANY_REQUESTS" } });
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await call(ctx.app, "GET", "/api/tickets", { token: other.token })).status).toBe(200);

    ctx.clock.advance(500);
    expect((await tickets()).status).toBe(200);
    expect((await tickets()).status).toBe(429);
    ctx.clock.advance(1_000);
    expect([(await tickets()).status, (await tickets()).status, (await tickets()).status]).toEqual([200, 200, 429]);
  });

  test("the in-flight count is released when a request fails", async () => {
    const ctx = await makeTestApp({ apiUserLimits: { inFlight: 1, perSecond: 0, burst: 0 } });
    const agent = await loginAs(ctx);
    const routes = routesWithHeldRequests(ctx);
    const failures = [
      async () => (await routes.get("/api/fail", agent.token)).status,
      async () => (await call(ctx.app, "GET", "/api/tickets/not-a-number", { token: agent.token })).status,
      async () => (await call(ctx.app, "GET", "/api/tickets/999999", { token: agent.token })).status,
      async () => (await call(ctx.app, "PUT", "/api/users/999999", { token: agent.token, body: {} })).status,
      async () => (await call(ctx.app, "POST", "/api/users", { token: agent.token, body: {} })).status,
    ];
    const statuses: number[] = [];
    for (const fail of failures) {
      statuses.push(await fail());
      await afterResponses();
    }
    expect(statuses).toEqual([500, 400, 404, 404, 403]);
    expect((await call(ctx.app, "GET", "/api/tickets", { token: agent.token })).status).toBe(200);
  });

  test("the external API's token requests have their own limit and are not counted against a user's", async () => {
    const ctx = await makeTestApp({ apiUserLimits: { inFlight: 1, perSecond: 1, burst: 1 } });
    const token = await getSetting(ctx.db, "userApiToken");
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await call(ctx.app, "POST", "/api/messages/send", { token, body: { number: "x", body: "hi" } })).status,
      );
    expect(statuses).not.toContain(429);
  });
});
