// @engine once
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { errorHandler } from "../src/http/error-handler";
import { createLogger } from "../src/log";
import { call, loginAs, makeTestApp } from "./helpers";

describe("error answers", () => {
  test("unknown routes are 404 ERR_NOT_FOUND and /health needs no token", async () => {
    const ctx = await makeTestApp();
    expect(await call(ctx.app, "GET", "/api/nothing-here")).toMatchObject({
      status: 404,
      json: { error: "ERR_NOT_FOUND" },
    });
    expect(await call(ctx.app, "GET", "/health")).toMatchObject({ status: 200, json: { status: "ok" } });
  });

  test("a malformed JSON body is 400 ERR_INVALID_BODY", async () => {
    const ctx = await makeTestApp();
    const res = await ctx.app.handle(
      new Request("http://localhost/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{nope",
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "ERR_INVALID_BODY", message: "The request could not be read." });
  });

  test("bodies of the wrong shape never get a 500", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const bodies = [null, [], "text", 42, { value: null }, { value: { a: 1 } }, { value: "x".repeat(100_000) }];
    for (const body of bodies) {
      const res = await call(ctx.app, "PUT", "/api/settings/call", { token, body });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  test("an unexpected failure is 500 ERR_INTERNAL with a request id and no stack, and is logged", async () => {
    const lines: string[] = [];
    const app = new Elysia().use(errorHandler(createLogger("error", (l) => lines.push(l)))).get("/boom", () => {
      throw new Error("secret internals");
    });
    const res = await app.handle(new Request("http://localhost/boom"));
    expect(res.status).toBe(500);
    const json = await res.json();
    expect(json.error).toBe("ERR_INTERNAL");
    expect(JSON.stringify(json)).not.toContain("secret internals");
    expect(lines.join()).toContain(json.requestId);
    expect(lines.join()).toContain("secret internals");
  });
});
