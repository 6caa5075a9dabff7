// @engine each
import { describe, expect, test } from "bun:test";
import { MAX_ANSWER_CHARS, complete, completeWithTools, streamCompletion } from "../../src/modules/ai/client";
import { readAiConfig } from "../../src/modules/ai/settings";
import { call } from "../helpers";
import { aiApp } from "./setup";

const ask = { feature: "suggest" as const, messages: [{ role: "user" as const, content: "Hello there" }] };

describe("the AI client", () => {
  test("a streamed answer arrives in pieces, and its usage is recorded", async () => {
    const { ctx, fake, admin } = await aiApp();
    fake.reply({ text: "Olá, Ana! Como posso ajudar?", chunk: 5, usage: { prompt_tokens: 42, completion_tokens: 9 } });
    const config = await readAiConfig(ctx.db);
    const pieces: string[] = [];
    for await (const piece of streamCompletion(
      ctx.deps,
      { ...config, enabled: true, baseUrl: fake.url, model: "m" },
      ask,
    ))
      pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe("Olá, Ana! Como posso ajudar?");
    expect(fake.requests[0]!.body).toMatchObject({ model: "m", stream: true, messages: ask.messages });
    const usage = await call(ctx.app, "GET", "/api/ai/usage", { token: admin.token });
    expect(usage.json.today).toEqual({ requests: 1, errors: 0, promptTokens: 42, completionTokens: 9 });
    expect(usage.json.recent[0]).toMatchObject({ feature: "suggest", model: "m", status: "ok", promptTokens: 42 });
  });

  test("an answer without usage is counted by its length, and a failed call is recorded with its error", async () => {
    const { ctx, fake, admin } = await aiApp({});
    const config = await readAiConfig(ctx.db);
    fake.reply({ text: "x".repeat(40) }, { status: 500 });
    expect(await complete(ctx.deps, config, ask)).toBe("x".repeat(40));
    await expect(complete(ctx.deps, config, ask)).rejects.toMatchObject({ code: "ERR_AI_ENDPOINT_ERROR" });
    const usage = await call(ctx.app, "GET", "/api/ai/usage", { token: admin.token });
    expect(usage.json.today).toMatchObject({ requests: 2, errors: 1, completionTokens: 10 });
    expect(usage.json.recent.map((c: { status: string; error: string | null }) => [c.status, c.error])).toEqual([
      ["error", "ERR_AI_ENDPOINT_ERROR"],
      ["ok", null],
    ]);
  });

  test("past the per-minute limit a call is refused with 429 without reaching the endpoint, until the minute passes", async () => {
    const { ctx, fake, admin } = await aiApp({ perMinute: 2 });
    const config = await readAiConfig(ctx.db);
    await complete(ctx.deps, config, ask);
    await complete(ctx.deps, config, ask);
    await expect(complete(ctx.deps, config, ask)).rejects.toMatchObject({ code: "ERR_AI_RATE_LIMITED", status: 429 });
    const refused = await call(ctx.app, "POST", "/api/ai/test", { token: admin.token });
    expect(refused).toMatchObject({ status: 429, json: { error: "ERR_AI_RATE_LIMITED" } });
    expect(fake.requests).toHaveLength(2);
    ctx.clock.advance(61_000);
    expect(await complete(ctx.deps, config, ask)).toBe("OK");
  });

  test("once today's tokens reach the daily budget, calls are refused until the next day", async () => {
    const { ctx, fake } = await aiApp({ dailyTokens: 100, perMinute: 0 });
    const config = await readAiConfig(ctx.db);
    fake.reply({ text: "one", usage: { prompt_tokens: 60, completion_tokens: 50 } });
    await complete(ctx.deps, config, ask);
    await expect(complete(ctx.deps, config, ask)).rejects.toMatchObject({ code: "ERR_AI_BUDGET_EXHAUSTED" });
    expect(fake.requests).toHaveLength(1);
    ctx.clock.advance(24 * 3600_000);
    expect(await complete(ctx.deps, config, ask)).toBe("OK");
  });

  test("a stream that stalls ends with a timeout; one that never ends is cut at the answer limit", async () => {
    const { ctx, fake } = await aiApp({ timeoutMs: 300 });
    const config = await readAiConfig(ctx.db);
    fake.reply({ stall: ["Olá", ", Ana"] });
    const got: string[] = [];
    const stalled = (async () => {
      for await (const piece of streamCompletion(ctx.deps, config, ask)) got.push(piece);
    })();
    await expect(stalled).rejects.toMatchObject({ code: "ERR_AI_TIMEOUT" });
    expect(got.join("")).toBe("Olá, Ana");
    fake.reply({ endless: true });
    let text = "";
    for await (const piece of streamCompletion(ctx.deps, { ...config, timeoutMs: 20_000 }, ask)) text += piece;
    expect(text.length).toBe(MAX_ANSWER_CHARS);
  });

  test("nonsense (not JSON, or JSON without a message) is an unreadable answer", async () => {
    const { ctx, fake } = await aiApp({});
    const config = await readAiConfig(ctx.db);
    fake.reply({ status: 200, body: "hello?" });
    await expect(complete(ctx.deps, config, ask)).rejects.toMatchObject({ code: "ERR_AI_BAD_ANSWER" });
    fake.reply({ toolCall: { name: "handoff", arguments: {} } });
    await expect(complete(ctx.deps, config, ask)).rejects.toMatchObject({ code: "ERR_AI_BAD_ANSWER" });
  });

  test("a request offering functions gets the names of those the model called", async () => {
    const { ctx, fake } = await aiApp({});
    const config = await readAiConfig(ctx.db);
    fake.reply({ toolCall: { name: "handoff", arguments: {} } });
    const tools = [{ name: "handoff", description: "Hand the conversation over to a person" }];
    expect(await completeWithTools(ctx.deps, config, { ...ask, tools })).toEqual({ text: "", toolCalls: ["handoff"] });
    expect(fake.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "handoff",
          description: "Hand the conversation over to a person",
          parameters: { type: "object", properties: {} },
        },
      },
    ]);
  });
});
