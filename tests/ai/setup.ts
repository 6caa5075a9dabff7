import { afterEach } from "bun:test";
import { first } from "../../src/db/client";
import { eq } from "drizzle-orm";
import { tickets } from "../../src/db/tables";
import type { AiSettingsUpdate } from "../../src/shared/contracts/ai";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "../helpers";
import { FakeOpenAI } from "./fake-openai";

const servers: FakeOpenAI[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** A fake endpoint stopped when the test ends. */
export function fakeOpenAI(): FakeOpenAI {
  const server = new FakeOpenAI();
  servers.push(server);
  return server;
}

/** An app with an admin, an agent and a fake endpoint; AI switched on with `settings` when given. */
export async function aiApp(settings?: AiSettingsUpdate) {
  const ctx = await makeTestApp();
  const fake = fakeOpenAI();
  const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
  const agent = await loginAs(ctx, { name: "Bia" });
  if (settings)
    await configure(ctx, admin.token, { baseUrl: fake.url, model: "fake-model", enabled: true, ...settings });
  return { ctx, fake, admin, agent };
}

export async function configure(ctx: TestContext, token: string, settings: AiSettingsUpdate) {
  const res = await call(ctx.app, "PUT", "/api/ai/settings", { token, body: settings });
  if (res.status !== 200) throw new Error(`AI settings refused: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

/** An open ticket of `userId` whose contact Ana wrote `bodies` on a paired sandbox connection. */
export async function ticketOf(ctx: TestContext, userId: number, bodies: string[] = ["Oi, meu pedido não chegou"]) {
  const wa = await createSandboxConnection(ctx);
  for (const body of bodies) await ctx.sandbox.inbound(wa.id, { from: "5511988887777", name: "Ana", body });
  const ticket = (await first(ctx.db.select().from(tickets)))!;
  await ctx.db.update(tickets).set({ userId, status: "open" }).where(eq(tickets.id, ticket.id));
  return { wa, ticketId: ticket.id };
}

/** The frames of a server-sent events answer, parsed. */
export async function sseFrames(res: Response): Promise<{ text?: string; error?: string; done?: boolean }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: "))
    .map((frame) => JSON.parse(frame.slice(6)));
}
