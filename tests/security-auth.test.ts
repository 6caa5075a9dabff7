import { describe, expect, test } from "bun:test";
import { updateSetting } from "../src/modules/settings/service";
import { call, createUser, loginAs, makeTestApp, type TestContext } from "./helpers";

const from = (address: string) => ({ "x-forwarded-for": address });
const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

function login(ctx: TestContext, email: string, password: string, address: string) {
  return call(ctx.app, "POST", "/api/auth/login", { body: { email, password }, headers: from(address) });
}

describe("failed-login limits", () => {
  test("M2: 20 wrong logins in 1 s from one address do not stop the owner signing in from another at once", async () => {
    const ctx = await makeTestApp();
    const admin = await createUser(ctx, { profile: "admin" });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await login(ctx, admin.email, `guess-${i}`, "203.0.113.66")).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const owner = await login(ctx, admin.email, admin.password, "198.51.100.10");
    expect(owner.status).toBe(200);
  });

  test("M2: after five failures from one address the waits double; the right password after the wait signs in and clears the count", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    for (let i = 0; i < 5; i++) expect((await login(ctx, user.email, "wrong", "203.0.113.5")).status).toBe(401);
    const blocked = await login(ctx, user.email, user.password, "203.0.113.5");
    expect(blocked).toMatchObject({ status: 429, json: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    expect(blocked.headers.get("retry-after")).toBe("1");
    ctx.clock.advance(1_000);
    expect((await login(ctx, user.email, "wrong", "203.0.113.5")).status).toBe(401);
    expect((await login(ctx, user.email, user.password, "203.0.113.5")).headers.get("retry-after")).toBe("2");
    ctx.clock.advance(2_000);
    expect((await login(ctx, user.email, user.password, "203.0.113.5")).status).toBe(200);
    // The success cleared the count: five more failures are allowed before any wait.
    for (let i = 0; i < 5; i++) expect((await login(ctx, user.email, "wrong", "203.0.113.5")).status).toBe(401);
  });

  test("M2: successful logins are not counted", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    for (let i = 0; i < 30; i++) expect((await login(ctx, user.email, user.password, "203.0.113.9")).status).toBe(200);
  });

  test("M2: one address guessing many accounts hits the per-address cap", async () => {
    const ctx = await makeTestApp();
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++)
      statuses.push((await login(ctx, `nobody${i}@example.com`, "wrong", "203.0.113.77")).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    expect((await login(ctx, "nobody0@example.com", "wrong", "203.0.113.78")).status).toBe(401);
  });

  test("L10: signup is limited per address", async () => {
    const ctx = await makeTestApp();
    await updateSetting(ctx.deps, "userCreation", "enabled");
    const signup = (i: number, address: string) =>
      call(ctx.app, "POST", "/api/auth/signup", {
        body: { name: "New user", email: `new${i}@example.com`, password: "12345" },
        headers: from(address),
      });
    for (let i = 0; i < 10; i++) expect((await signup(i, "203.0.113.20")).status).toBe(200);
    const blocked = await signup(10, "203.0.113.20");
    expect(blocked).toMatchObject({ status: 429, json: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signup(11, "203.0.113.21")).status).toBe(200);
    ctx.clock.advance(3600_000);
    expect((await signup(12, "203.0.113.20")).status).toBe(200);
  });
});

describe("refresh-token families", () => {
  const refresh = (ctx: TestContext, cookie: string) =>
    call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie } });

  test("M3: a rotated refresh token is refused, and presenting it revokes the new one too (reuse detection)", async () => {
    const ctx = await makeTestApp();
    const { cookie: first } = await loginAs(ctx);
    const rotated = await refresh(ctx, first);
    expect(rotated.status).toBe(200);
    const second = cookieOf(rotated);
    expect(second).not.toBe(first);
    const replay = await refresh(ctx, first);
    expect(replay).toMatchObject({ status: 401, json: { error: "ERR_SESSION_EXPIRED" } });
    expect(await refresh(ctx, second)).toMatchObject({ status: 401, json: { error: "ERR_SESSION_EXPIRED" } });
    // The family's access tokens end with it.
    expect((await call(ctx.app, "GET", "/api/users", { token: rotated.json.token })).status).toBe(401);
  });

  test("M3: a replayed token ends only its own family; the user's other devices stay signed in", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const laptop = await login(ctx, user.email, user.password, "203.0.113.30");
    const phone = await login(ctx, user.email, user.password, "203.0.113.31");
    const rotated = await refresh(ctx, cookieOf(laptop));
    expect((await refresh(ctx, cookieOf(laptop))).status).toBe(401);
    expect((await refresh(ctx, cookieOf(rotated))).status).toBe(401);
    expect((await refresh(ctx, cookieOf(phone))).status).toBe(200);
  });

  test("M3: logout ends this device's session only", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const laptop = await login(ctx, user.email, user.password, "203.0.113.40");
    const phone = await login(ctx, user.email, user.password, "203.0.113.41");
    expect((await call(ctx.app, "DELETE", "/api/auth/logout", { token: laptop.json.token })).status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: laptop.json.token })).status).toBe(401);
    expect((await refresh(ctx, cookieOf(laptop))).status).toBe(401);
    expect((await call(ctx.app, "GET", "/api/users", { token: phone.json.token })).status).toBe(200);
    expect((await refresh(ctx, cookieOf(phone))).status).toBe(200);
  });

  test("logging out everywhere ends every session of the user: every access token and every refresh family", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const laptop = await login(ctx, user.email, user.password, "203.0.113.50");
    const phone = await login(ctx, user.email, user.password, "203.0.113.51");
    const colleague = await login(ctx, other.email, other.password, "203.0.113.52");
    const out = await call(ctx.app, "POST", "/api/auth/logout-all", {
      token: laptop.json.token,
      headers: { cookie: cookieOf(laptop) },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie") ?? "").toMatch(/^rt=;.*Max-Age=0/i);
    for (const device of [laptop, phone]) {
      expect((await call(ctx.app, "GET", "/api/users", { token: device.json.token })).status).toBe(401);
      expect((await refresh(ctx, cookieOf(device))).status).toBe(401);
    }
    expect((await refresh(ctx, cookieOf(colleague))).status).toBe(200);
    expect((await call(ctx.app, "POST", "/api/auth/logout-all")).status).toBe(401);
  });

  test("M3: a token replayed right after its rotation is already refused and ends that session", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const rotated = await refresh(ctx, cookie);
    expect((await refresh(ctx, cookie)).status).toBe(401);
    expect((await refresh(ctx, cookieOf(rotated))).status).toBe(401);
  });

  test("M3: one refresh token presented twice at once (a stolen copy) rotates once; the other is a replay that ends the session", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const answers = await Promise.all([refresh(ctx, cookie), refresh(ctx, cookie), refresh(ctx, cookie)]);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    for (const granted of answers.filter((a) => a.status === 200)) {
      expect((await refresh(ctx, cookieOf(granted))).status).toBe(401);
      expect((await call(ctx.app, "GET", "/api/users", { token: granted.json.token })).status).toBe(401);
    }
  });

  test("M3: pages sign in with the current refresh token and refuse a replaced one", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const rotated = await refresh(ctx, cookie);
    const page = (c: string) => ctx.app.handle(new Request("http://localhost/tickets", { headers: { cookie: c } }));
    expect((await page(cookieOf(rotated))).status).toBe(200);
    expect((await page(cookie)).headers.get("location")).toBe("/login");
    expect((await page(cookieOf(rotated))).headers.get("location")).toBe("/login");
  });
});

describe("changing one's own password", () => {
  test("L8: needs the current password; a wrong or missing one is 400 ERR_WRONG_PASSWORD on currentPassword", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    const put = (body: Record<string, unknown>) =>
      call(ctx.app, "PUT", `/api/users/${agent.user.id}`, { token: agent.token, body });
    expect(await put({ password: "new-secret" })).toMatchObject({
      status: 400,
      json: { error: "ERR_WRONG_PASSWORD", field: "currentPassword" },
    });
    expect(await put({ password: "new-secret", currentPassword: "not-it" })).toMatchObject({
      status: 400,
      json: { error: "ERR_WRONG_PASSWORD" },
    });
    expect((await put({ name: "Only the name" })).status).toBe(200);
    expect((await put({ password: "new-secret", currentPassword: agent.user.password })).status).toBe(200);
    expect((await login(ctx, agent.user.email, "new-secret", "203.0.113.50")).status).toBe(200);
  });

  test("L8: wrong current passwords are throttled like wrong logins", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    const put = (currentPassword: string) =>
      call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
        token: agent.token,
        body: { password: "new-secret", currentPassword },
        headers: from("203.0.113.60"),
      });
    for (let i = 0; i < 5; i++) expect((await put("guess")).status).toBe(400);
    expect(await put(agent.user.password)).toMatchObject({ status: 429, json: { error: "ERR_TOO_MANY_ATTEMPTS" } });
  });

  test("L8: an admin resetting another user's password does not need it", async () => {
    const ctx = await makeTestApp();
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await createUser(ctx);
    expect(
      (await call(ctx.app, "PUT", `/api/users/${agent.id}`, { token: admin.token, body: { password: "reset-pw" } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(ctx.app, "PUT", `/api/users/${admin.user.id}`, {
          token: admin.token,
          body: { password: "own-new-pw" },
        })
      ).status,
    ).toBe(400);
  });
});
