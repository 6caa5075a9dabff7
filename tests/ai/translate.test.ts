// @engine once
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { first, one } from "../../src/db/client";
import { messages, queues, tickets } from "../../src/db/tables";
import { call } from "../helpers";
import { aiApp, ticketOf } from "./setup";

describe("translation", () => {
  test("a customer's message is translated into the agent's interface language, and nothing is stored", async () => {
    const { ctx, fake, agent } = await aiApp({ features: ["translate"] });
    const { ticketId } = await ticketOf(ctx, agent.user.id, ["Bonjour, ma commande n'est pas arrivée"]);
    const message = (await first(ctx.db.select().from(messages).where(eq(messages.ticketId, ticketId))))!;
    fake.reply({ text: "Olá, meu pedido não chegou" });
    const res = await call(ctx.app, "POST", `/api/messages/${message.id}/ai/translate`, {
      token: agent.token,
      headers: { "accept-language": "pt-BR" },
    });
    expect(res).toMatchObject({ status: 200, json: { text: "Olá, meu pedido não chegou" } });
    const [system, user] = fake.requests[0]!.body.messages;
    expect(system!.content).toContain("into Portuguese");
    expect(user!.content).toBe("Bonjour, ma commande n'est pas arrivée");
    expect(await ctx.db.select().from(messages).where(eq(messages.ticketId, ticketId))).toHaveLength(1);
  });

  test("the agent's draft is put in the customer's language, read from the conversation", async () => {
    const { ctx, fake, agent } = await aiApp({ features: ["translate"] });
    const { ticketId } = await ticketOf(ctx, agent.user.id, ["Hello, my order did not arrive"]);
    fake.reply({ text: "Hi! I will check your order now." });
    const res = await call(ctx.app, "POST", `/api/tickets/${ticketId}/ai/translate-reply`, {
      token: agent.token,
      body: { text: "Oi! Vou verificar seu pedido agora." },
    });
    expect(res).toMatchObject({ status: 200, json: { text: "Hi! I will check your order now." } });
    const prompt = fake.promptText();
    expect(prompt).toContain("[Customer] Hello, my order did not arrive");
    expect(prompt).toContain("Reply to translate:\nOi! Vou verificar seu pedido agora.");
  });

  test("only with the feature on, and only on tickets the user may see (replies: may send on)", async () => {
    const { ctx, fake, admin, agent } = await aiApp({ features: ["suggest"] });
    const { ticketId } = await ticketOf(ctx, admin.user.id);
    const message = (await first(ctx.db.select().from(messages).where(eq(messages.ticketId, ticketId))))!;
    const off = await call(ctx.app, "POST", `/api/messages/${message.id}/ai/translate`, { token: admin.token });
    expect(off).toMatchObject({ status: 400, json: { error: "ERR_AI_DISABLED" } });
    await call(ctx.app, "PUT", "/api/ai/settings", { token: admin.token, body: { features: ["translate"] } });
    const reply = await call(ctx.app, "POST", `/api/tickets/${ticketId}/ai/translate-reply`, {
      token: agent.token,
      body: { text: "Oi" },
    });
    expect(reply).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    const queue = await one(ctx.db.insert(queues).values({ name: "VIP", color: "#000000" }).returning());
    await ctx.db.update(tickets).set({ queueId: queue.id }).where(eq(tickets.id, ticketId));
    const hidden = await call(ctx.app, "POST", `/api/messages/${message.id}/ai/translate`, { token: agent.token });
    expect(hidden).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    expect(fake.requests).toHaveLength(0);
  });
});
