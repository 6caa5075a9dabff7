// @engine once
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../src/config";
import { BASE, call, createUser, loginAs, makeTestApp } from "./helpers";

const FRONTEND = "https://helpdesk.example.com";
const OTHER = "https://evil.example";

function preflight(origin: string, path = "/api/auth/login", headers = "content-type") {
  return new Request(BASE + path, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": headers },
  });
}

describe("CORS for the origins in CORS_ORIGINS", () => {
  test("a listed origin's preflight is answered with its origin, methods, headers and credentials", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const res = await ctx.app.handle(preflight(FRONTEND, "/api/auth/login", "content-type, authorization"));
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(FRONTEND);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toBe("content-type, authorization");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  test("every /api route answers a listed origin's preflight, including routes with ids", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    for (const path of ["/api/tickets/12", "/api/messages/3", "/api/settingsMessage/", "/api/media/9"]) {
      const res = await ctx.app.handle(preflight(FRONTEND, path, "authorization"));
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(FRONTEND);
    }
  });

  test("an origin not listed gets no CORS header, on preflights and on answers", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const res = await ctx.app.handle(preflight(OTHER));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const { token } = await loginAs(ctx);
    const answer = await call(ctx.app, "GET", "/api/tickets", { token, headers: { origin: OTHER } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("with no origin listed, preflights are not answered and same-origin calls carry no CORS header", async () => {
    const ctx = await makeTestApp();
    const res = await ctx.app.handle(preflight(FRONTEND));
    expect(res.status).toBe(404);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const { token } = await loginAs(ctx);
    const answer = await call(ctx.app, "GET", "/api/tickets", { token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a listed origin's page logs in, gets a cross-site refresh cookie and can read answers and errors", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const user = await createUser(ctx);
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { origin: FRONTEND, "sec-fetch-site": "cross-site" },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("access-control-allow-origin")).toBe(FRONTEND);
    expect(login.headers.get("access-control-allow-credentials")).toBe("true");
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/i);

    const refused = await call(ctx.app, "GET", "/api/tickets", { token: "not-a-token", headers: { origin: FRONTEND } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe(FRONTEND);
  });

  test("a listed origin of the same site (another port, plain HTTP) gets a Lax cookie without Secure, which its browser keeps", async () => {
    const ctx = await makeTestApp({ corsOrigins: ["http://192.0.2.2:3000"] });
    const user = await createUser(ctx);
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { origin: "http://192.0.2.2:3000", "sec-fetch-site": "same-site", host: "192.0.2.2:8080" },
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  test("a page of an origin not listed still may not log in", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const user = await createUser(ctx);
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { origin: OTHER, "sec-fetch-site": "cross-site" },
    });
    expect(login.status).toBe(403);
    expect(login.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("our own pages keep their Lax cookie when other origins are listed", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const user = await createUser(ctx);
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { origin: "http://localhost", "sec-fetch-site": "same-origin" },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("set-cookie")).toMatch(/SameSite=Lax/i);
    expect(login.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS_ORIGINS and PUBLIC_URL in the environment", () => {
  const dataDir = `/tmp/zapdesk-cors-config-${process.pid}`;

  test("origins are read comma-separated, trimmed, without a trailing slash", () => {
    const config = loadConfig({ DATA_DIR: dataDir, CORS_ORIGINS: " https://a.example.com/, http://localhost:3000 " });
    expect(config.corsOrigins).toEqual(["https://a.example.com", "http://localhost:3000"]);
    expect(loadConfig({ DATA_DIR: dataDir }).corsOrigins).toEqual([]);
  });

  test("an entry that is not an origin stops the start with a clear message", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, CORS_ORIGINS: "https://a.example.com/app" })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ DATA_DIR: dataDir, CORS_ORIGINS: "*" })).toThrow(/CORS_ORIGINS/);
  });

  test("PUBLIC_URL is kept without its trailing slash", () => {
    expect(loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "https://desk.example.com/" }).publicUrl).toBe(
      "https://desk.example.com",
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "desk" })).toThrow(/PUBLIC_URL/);
  });
});
