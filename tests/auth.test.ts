// @engine once
import { describe, expect, test } from "bun:test";
import { users } from "../src/db/tables";
import { ensureFirstAdmin } from "../src/modules/auth/service";
import { createTokens } from "../src/modules/auth/tokens";
import { updateSetting } from "../src/modules/settings/service";
import { call, createUser, loginAs, makeTestApp } from "./helpers";

const ip = (n: number) => ({ "x-forwarded-for": `127.1.0.${n}` });

describe("login", () => {
  test("returns a token, the user and an httpOnly SameSite=Lax refresh cookie", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx, { profile: "admin", email: "boss@example.com" });
    const res = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: "Boss@Example.com ", password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.json.token).toBeString();
    expect(res.json.user).toMatchObject({ id: user.id, email: "boss@example.com", profile: "admin", queues: [] });
    expect(res.json.user.passwordHash).toBeUndefined();
    expect(res.json.user.tokenVersion).toBeUndefined();
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain("rt=");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
  });

  test("a wrong password or unknown email is 401 ERR_INVALID_CREDENTIALS", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const wrong = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: "nope-nope" },
    });
    expect(wrong).toMatchObject({ status: 401, json: { error: "ERR_INVALID_CREDENTIALS" } });
    const unknown = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: "ghost@example.com", password: "x" },
    });
    expect(unknown).toMatchObject({ status: 401, json: { error: "ERR_INVALID_CREDENTIALS" } });
  });

  test("email and password are required", async () => {
    const ctx = await makeTestApp();
    const res = await call(ctx.app, "POST", "/api/auth/login", { body: { password: "x" } });
    expect(res).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "email" },
    });
    const blank = await call(ctx.app, "POST", "/api/auth/login", { body: { email: "a@b.co", password: "" } });
    expect(blank).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "password" },
    });
  });

  test("is rate limited per email and address: after five wrong passwords the next try waits, with Retry-After", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    for (let i = 0; i < 5; i++) {
      const res = await call(ctx.app, "POST", "/api/auth/login", {
        body: { email: user.email, password: "bad" },
        headers: ip(1),
      });
      expect(res.status).toBe(401);
    }
    const blocked = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: ip(1),
    });
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toBe("ERR_TOO_MANY_ATTEMPTS");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const otherIp = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: ip(2),
    });
    expect(otherIp.status).toBe(200);
    ctx.clock.advance(1_000);
    const later = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: ip(1),
    });
    expect(later.status).toBe(200);
  });

  test("is not limited per email alone: wrong passwords from many addresses never lock the account", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    for (let i = 0; i < 20; i++) {
      const res = await call(ctx.app, "POST", "/api/auth/login", {
        body: { email: user.email, password: "bad" },
        headers: ip(10 + i),
      });
      expect(res.status).toBe(401);
    }
    const owner = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: ip(99),
    });
    expect(owner.status).toBe(200);
  });
});

describe("first admin", () => {
  test("nodes starting together on an empty database create one admin between them, and every node boots", async () => {
    const ctx = await makeTestApp();
    await ctx.db.delete(users);
    await Promise.all([ensureFirstAdmin(ctx.deps), ensureFirstAdmin(ctx.deps), ensureFirstAdmin(ctx.deps)]);
    const admins = await ctx.db.select().from(users);
    expect(admins.map((u) => [u.email, u.profile])).toEqual([["admin@example.com", "admin"]]);
  });
});

describe("access tokens", () => {
  test("a route without a token answers 401", async () => {
    const ctx = await makeTestApp();
    const res = await call(ctx.app, "GET", "/api/settings");
    expect(res).toMatchObject({ status: 401, json: { error: "ERR_SESSION_EXPIRED" } });
  });

  test("a forged or malformed token answers 403 ERR_SESSION_EXPIRED (the client refreshes once), none 401", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const forged = createTokens({ ...ctx.deps.config, jwtSecret: "another-secret-entirely-000000" });
    const other = await forged.signAccess({ id: 1, profile: "admin", tokenVersion: 0 });
    const refused = { status: 403, json: { error: "ERR_SESSION_EXPIRED" } };
    expect(await call(ctx.app, "GET", "/api/settings", { token: other })).toMatchObject(refused);
    expect(await call(ctx.app, "GET", "/api/settings", { token: `${token.slice(0, -3)}abc` })).toMatchObject(refused);
    expect(await call(ctx.app, "GET", "/api/settings", { token: "garbage" })).toMatchObject(refused);
    expect((await call(ctx.app, "GET", "/api/settings")).status).toBe(401);
  });

  test("an expired token answers 403 ERR_SESSION_EXPIRED so the client refreshes", async () => {
    const ctx = await makeTestApp();
    const { user } = await loginAs(ctx, { profile: "admin" });
    // Signed with a lifetime that ended ten seconds ago: authentic, but expired.
    const expired = createTokens({ ...ctx.deps.config, accessTokenTtl: -10 });
    const token = await expired.signAccess({ id: user.id, profile: "admin", tokenVersion: 0 });
    const res = await call(ctx.app, "GET", "/api/settings", { token });
    expect(res).toMatchObject({ status: 403, json: { error: "ERR_SESSION_EXPIRED" } });
  });
});

describe("refresh and logout", () => {
  test("refresh with the cookie returns a new token and rotates the cookie", async () => {
    const ctx = await makeTestApp();
    const { cookie, user } = await loginAs(ctx);
    const res = await call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.json.user.id).toBe(user.id);
    expect((await call(ctx.app, "GET", "/api/settings", { token: res.json.token })).status).toBe(403);
    expect(res.headers.get("set-cookie")).toContain("rt=");
  });

  test("refresh without or with a bad cookie is 401 and clears the cookie", async () => {
    const ctx = await makeTestApp();
    expect((await call(ctx.app, "POST", "/api/auth/refresh_token")).status).toBe(401);
    const res = await call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie: "rt=nonsense" } });
    expect(res).toMatchObject({ status: 401, json: { error: "ERR_SESSION_EXPIRED" } });
  });

  test("logout revokes both the access token and the refresh cookie", async () => {
    const ctx = await makeTestApp();
    const { token, cookie } = await loginAs(ctx, { profile: "admin" });
    const out = await call(ctx.app, "DELETE", "/api/auth/logout", { token });
    expect(out.status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/settings", { token })).status).toBe(401);
    expect((await call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie } })).status).toBe(401);
  });
});

describe("signup", () => {
  test("is refused with ERR_USER_CREATION_DISABLED while userCreation is disabled (the default)", async () => {
    const ctx = await makeTestApp();
    const res = await call(ctx.app, "POST", "/api/auth/signup", {
      body: { name: "Ana", email: "ana@example.com", password: "12345" },
    });
    expect(res).toMatchObject({ status: 403, json: { error: "ERR_USER_CREATION_DISABLED" } });
  });

  test("creates an agent, never an admin, when enabled", async () => {
    const ctx = await makeTestApp();
    await updateSetting(ctx.deps, "userCreation", "enabled");
    const res = await call(ctx.app, "POST", "/api/auth/signup", {
      body: { name: "Ana", email: "ana@example.com", password: "12345", profile: "admin", queueIds: [1] },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "Ana", email: "ana@example.com", profile: "user", queues: [] });
    expect(ctx.hub.to("all", "user")).toHaveLength(1);
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: "ana@example.com", password: "12345" },
    });
    expect(login.json.user.profile).toBe("user");
  });

  test("answers each invalid field with its rule's code and the spec's message", async () => {
    const ctx = await makeTestApp();
    await updateSetting(ctx.deps, "userCreation", "enabled");
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ email: "a@b.co", password: "12345" }, "name", "required", "Required"],
      [{ name: "A", email: "a@b.co", password: "12345" }, "name", "min", "Too Short!"],
      [{ name: "x".repeat(51), email: "a@b.co", password: "12345" }, "name", "max", "Too Long!"],
      [{ name: "   ", email: "a@b.co", password: "12345" }, "name", "required", "Required"],
      [{ name: "Ana", email: "not-an-email", password: "12345" }, "email", "email", "Invalid email"],
      [{ name: "Ana", email: "a@b.co", password: "1234" }, "password", "min", "Too Short!"],
      [{ name: "Ana", email: "a@b.co", password: "x".repeat(51) }, "password", "max", "Too Long!"],
      [{ name: 42, email: "a@b.co", password: "12345" }, "name", "invalid", "Invalid value"],
    ];
    for (const [body, field, rule, message] of cases) {
      const res = await call(ctx.app, "POST", "/api/auth/signup", { body });
      expect({ body, status: res.status, json: res.json }).toEqual({
        body,
        status: 400,
        json: { error: "VALIDATION", field, rule, message },
      });
    }
  });

  test("refuses an email already used", async () => {
    const ctx = await makeTestApp();
    await updateSetting(ctx.deps, "userCreation", "enabled");
    await createUser(ctx, { email: "taken@example.com" });
    const res = await call(ctx.app, "POST", "/api/auth/signup", {
      body: { name: "Ana", email: "TAKEN@example.com", password: "12345" },
    });
    expect(res).toMatchObject({
      status: 400,
      json: { field: "email", error: "VALIDATION", rule: "unique", message: "An user with this email already exists." },
    });
  });
});
