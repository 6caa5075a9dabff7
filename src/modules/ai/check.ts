import type { AppDeps } from "../../deps";
import type { AiTestDto } from "../../shared/contracts/ai";
import { assertUsable, complete } from "./client";
import { readAiConfig } from "./settings";

/**
 * POST /ai/test: a one-line question to the stored endpoint and model, answered with the model's reply, or the
 * error that says what is wrong (unreachable, key rejected, timeout, not an OpenAI-compatible answer).
 */
export async function testEndpoint(deps: Pick<AppDeps, "db" | "clock" | "config" | "log">): Promise<AiTestDto> {
  const config = await readAiConfig(deps.db);
  assertUsable(config, "test");
  const started = Date.now();
  const reply = await complete(deps, config, {
    feature: "test",
    maxTokens: 20,
    messages: [{ role: "user", content: "Reply with one word: OK" }],
  });
  return { reply: reply.trim().slice(0, 200), model: config.model, durationMs: Date.now() - started };
}
