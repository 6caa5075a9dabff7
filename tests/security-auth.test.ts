// @engine each
import { describe, expect, test } from "bun:test";
import { updateSetting } from "../src/modules/settings/service";
import { call, createUser, loginAs, makeTestApp, type TestContext } from "./helpers";

const from = (address: string) => ({ "x-forwarded-for": address });
const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

/** Counts the password hashes and checks the app computes from now on. */
function countHashes(ctx: TestContext) {
  const counter = { count: 0 };
  const { hash, verify } = ctx.deps.passwords;
  ctx.deps.passwords.hash = (password) => {
    counter.count++;
    return hash.call(ctx.deps.passwords, password);
  };
  ctx.deps.passwords.verify = (password, stored) => {
    counter.count++;
    return verify.call(ctx.deps.passwords, password, stored);
  };
  return counter;
}

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

  test("M1: past the per-address cap, guesses at unknown emails from that address are answered without hashing", async () => {
    const ctx = await makeTestApp();
    const hashes = countHashes(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++)
      statuses.push((await login(ctx, `nobody${i}@example.com`, "wrong", "203.0.113.77")).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect(hashes.count).toBe(50);
    expect((await login(ctx, "nobody0@example.com", "wrong", "203.0.113.78")).status).toBe(401);
    expect(hashes.count).toBe(51);
  });

  test("M1: a correct login from an address that hit its cap guessing other accounts succeeds", async () => {
    const ctx = await makeTestApp();
    const colleague = await createUser(ctx);
    const victim = await createUser(ctx);
    for (let i = 0; i < 60; i++) await login(ctx, `nobody${i}@example.com`, "wrong", "203.0.113.80");
    for (let i = 0; i < 3; i++) await login(ctx, victim.email, `guess-${i}`, "203.0.113.80");
    expect((await login(ctx, colleague.email, colleague.password, "203.0.113.80")).status).toBe(200);
    // The account guessed at from there waits after a single failure, not five.
    expect((await login(ctx, victim.email, victim.password, "203.0.113.80")).status).toBe(429);
  });

  test("C1: simultaneous logins count against the address and the account before hashing", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const hashes = countHashes(ctx);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(ctx, user.email, `guess-${i}`, "203.0.113.90")),
    );
    expect(answers.filter((a) => a.status === 401).length).toBe(5);
    expect(answers.filter((a) => a.status === 429).length).toBe(15);
    expect(hashes.count).toBe(5);
    const unknown = await Promise.all(
      Array.from({ length: 120 }, (_, i) => login(ctx, `nobody${i}@example.com`, "wrong", "203.0.113.91")),
    );
    expect(unknown.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(hashes.count).toBe(5 + 50);
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
    ctx.clock.advance(5_001);
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
    ctx.clock.advance(5_001);
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

  test("refresh without false alarms: the token just replaced, presented again within 5 s, gets the same successor", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const rotated = await refresh(ctx, cookie);
    ctx.clock.advance(4_000);
    const again = await refresh(ctx, cookie);
    expect(again.status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: again.json.token })).status).toBe(200);
    // Both answers hold the same successor: either one refreshes, once.
    expect((await refresh(ctx, cookieOf(again))).status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: rotated.json.token })).status).toBe(200);
  });

  test("refresh without false alarms: a client refreshing twice at once with the same cookie stays signed in", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const answers = await Promise.all([refresh(ctx, cookie), refresh(ctx, cookie), refresh(ctx, cookie)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const granted of answers)
      expect((await call(ctx.app, "GET", "/api/users", { token: granted.json.token })).status).toBe(200);
    expect((await refresh(ctx, cookieOf(answers[2]!))).status).toBe(200);
  });

  test("refresh without false alarms: a replay after the 5 s grace still ends the session", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const rotated = await refresh(ctx, cookie);
    ctx.clock.advance(5_001);
    expect((await refresh(ctx, cookie)).status).toBe(401);
    expect((await refresh(ctx, cookieOf(rotated))).status).toBe(401);
    expect((await call(ctx.app, "GET", "/api/users", { token: rotated.json.token })).status).toBe(401);
  });

  test("refresh without false alarms: only the token just replaced has a grace, not an older one", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const second = cookieOf(await refresh(ctx, cookie));
    expect((await refresh(ctx, second)).status).toBe(200);
    expect((await refresh(ctx, cookie)).status).toBe(401);
  });

  test("M3: pages sign in with the current refresh token and refuse a replaced one", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx);
    const rotated = await refresh(ctx, cookie);
    ctx.clock.advance(5_001);
    const page = (c: string) => ctx.app.handle(new Request("http://localhost/tickets", { headers: { cookie: c } }));
    expect((await page(cookieOf(rotated))).status).toBe(200);
    expect((await page(cookie)).headers.get("location")).toBe("/login");
    expect((await page(cookieOf(rotated))).headers.get("location")).toBe("/login");
  });
});

describe("changing one's own password", () => {
  test("L8: past 10 minutes after signing in it needs the current password; a missing one asks for a recent login, a wrong one is ERR_WRONG_PASSWORD", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    ctx.clock.advance(10 * 60_000);
    const put = (body: Record<string, unknown>) =>
      call(ctx.app, "PUT", `/api/users/${agent.user.id}`, { token: agent.token, body });
    expect(await put({ password: "new-secret" })).toMatchObject({
      status: 400,
      json: { error: "ERR_RECENT_LOGIN_REQUIRED", field: "currentPassword", message: expect.stringContaining("10") },
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

  test("the family's profile password change: without currentPassword within 10 minutes of a password login on that session", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    ctx.clock.advance(9 * 60_000);
    // What the whaticket family's profile form sends: the whole user, a new password, no current one.
    const body = { name: agent.user.name, email: agent.user.email, password: "changed-pw", profile: "user" };
    expect((await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, { token: agent.token, body })).status).toBe(200);
    expect((await login(ctx, agent.user.email, "changed-pw", "203.0.113.51")).status).toBe(200);
  });

  test("the family's profile password change: a refreshed session counts from its password login, not from the refresh", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    ctx.clock.advance(9 * 60_000);
    const renewed = await call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie: agent.cookie } });
    ctx.clock.advance(2 * 60_000);
    const answer = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: renewed.json.token,
      body: { password: "changed-pw" },
      headers: { "accept-language": "pt-BR" },
    });
    expect(answer).toMatchObject({ status: 400, json: { error: "ERR_RECENT_LOGIN_REQUIRED" } });
    expect(answer.json.message).toContain("senha atual");
  });

  test("L8: an admin resetting another user's password does not need it", async () => {
    const ctx = await makeTestApp();
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await createUser(ctx);
    ctx.clock.advance(10 * 60_000);
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
