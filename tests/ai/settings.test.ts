// @engine once
import { describe, expect, test } from "bun:test";
import { call } from "../helpers";
import { aiApp, configure } from "./setup";

const KEY = "sk-secret-key-0123456789";

describe("AI settings", () => {
  test("AI is off by default, with a 20 s timeout and no key", async () => {
    const { ctx, admin } = await aiApp();
    const res = await call(ctx.app, "GET", "/api/ai/settings", { token: admin.token });
    expect(res).toMatchObject({ status: 200, json: { enabled: false, timeoutMs: 20_000, hasKey: false } });
    const features = await call(ctx.app, "GET", "/api/ai/features", { token: admin.token });
    expect(features.json).toEqual({ features: [] });
  });

  test("agents can neither read nor change any AI setting, nor test, nor read the usage", async () => {
    const { ctx, agent } = await aiApp();
    const token = agent.token;
    for (const [method, path, body] of [
      ["GET", "/api/ai/settings", undefined],
      ["PUT", "/api/ai/settings", { enabled: true }],
      ["POST", "/api/ai/test", undefined],
      ["GET", "/api/ai/usage", undefined],
    ] as const)
      expect(await call(ctx.app, method, path, { token, body })).toMatchObject({
        status: 403,
        json: { error: "ERR_NO_PERMISSION" },
      });
  });

  test("the API key is write-only: no answer, list of settings or socket event ever carries it", async () => {
    const { ctx, fake, admin, agent } = await aiApp();
    ctx.hub.clear();
    const saved = await configure(ctx, admin.token, { baseUrl: fake.url, model: "m", apiKey: KEY, enabled: true });
    expect(saved).toMatchObject({ hasKey: true, enabled: true });
    expect(JSON.stringify(saved)).not.toContain(KEY);
    const answers = [
      await call(ctx.app, "GET", "/api/ai/settings", { token: admin.token }),
      await call(ctx.app, "GET", "/api/settings", { token: admin.token }),
      await call(ctx.app, "GET", "/api/ai/features", { token: agent.token }),
      await call(ctx.app, "GET", "/api/ai/usage", { token: admin.token }),
    ];
    for (const res of answers) expect(JSON.stringify(res.json)).not.toContain(KEY);
    expect(JSON.stringify(ctx.hub.sent)).not.toContain(KEY);
    const page = await ctx.app.handle(new Request("http://localhost/settings", { headers: { cookie: admin.cookie } }));
    expect(await page.text()).not.toContain(KEY);
    // Saving other fields keeps the key; an empty one removes it.
    expect(await configure(ctx, admin.token, { model: "other" })).toMatchObject({ hasKey: true });
    expect(await configure(ctx, admin.token, { apiKey: "" })).toMatchObject({ hasKey: false });
  });

  test("switching AI on needs a base URL and a model; a base URL must be http(s)", async () => {
    const { ctx, admin } = await aiApp();
    const on = await call(ctx.app, "PUT", "/api/ai/settings", { token: admin.token, body: { enabled: true } });
    expect(on).toMatchObject({ status: 400, json: { error: "ERR_AI_NOT_CONFIGURED" } });
    const bad = await call(ctx.app, "PUT", "/api/ai/settings", {
      token: admin.token,
      body: { baseUrl: "file:///etc/passwd" },
    });
    expect(bad).toMatchObject({ status: 400, json: { error: "VALIDATION", field: "baseUrl" } });
  });
});

describe("the Test action", () => {
  test("answers the model's reply, sending the key as a Bearer token", async () => {
    const { ctx, fake, admin } = await aiApp({ apiKey: KEY });
    fake.reply({ text: "OK" });
    const res = await call(ctx.app, "POST", "/api/ai/test", { token: admin.token });
    expect(res).toMatchObject({ status: 200, json: { reply: "OK", model: "fake-model" } });
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]!.body.model).toBe("fake-model");
  });

  test("a key the endpoint rejects (401) says so", async () => {
    const { ctx, fake, admin } = await aiApp({ apiKey: "sk-wrong" });
    fake.requiredKey = KEY;
    const res = await call(ctx.app, "POST", "/api/ai/test", { token: admin.token });
    expect(res).toMatchObject({ status: 502, json: { error: "ERR_AI_KEY_REJECTED" } });
  });

  test("an endpoint that is down, answers HTML, answers 500 or never answers gets its own error", async () => {
    const { ctx, fake, admin } = await aiApp({ timeoutMs: 300 });
    const test = async () => (await call(ctx.app, "POST", "/api/ai/test", { token: admin.token })).json.error;
    fake.reply({ html: true });
    expect(await test()).toBe("ERR_AI_BAD_ANSWER");
    fake.reply({ status: 500, body: "boom" });
    expect(await test()).toBe("ERR_AI_ENDPOINT_ERROR");
    fake.reply({ hang: true });
    expect(await test()).toBe("ERR_AI_TIMEOUT");
    await fake.stop();
    expect(await test()).toBe("ERR_AI_UNREACHABLE");
  });

  test("without a base URL and a model the test is refused before any request", async () => {
    const { ctx, fake, admin } = await aiApp();
    const res = await call(ctx.app, "POST", "/api/ai/test", { token: admin.token });
    expect(res).toMatchObject({ status: 400, json: { error: "ERR_AI_NOT_CONFIGURED" } });
    expect(fake.requests).toEqual([]);
  });
});
