// @engine once
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { one } from "../../src/db/client";
import { messages, queues, tickets } from "../../src/db/tables";
import { autoSummariesQueued } from "../../src/modules/ai/auto-summary";
import { BASE, call, loginAs } from "../helpers";
import { aiApp, configure, sseFrames, ticketOf } from "./setup";

const KEY = "sk-never-in-a-prompt-42";

const suggest = (ctx: Awaited<ReturnType<typeof aiApp>>["ctx"], ticketId: number, token: string) =>
  ctx.app.handle(
    new Request(`${BASE}/api/tickets/${ticketId}/ai/suggest`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    }),
  );

const notesOf = async (ctx: Awaited<ReturnType<typeof aiApp>>["ctx"], ticketId: number) =>
  await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.isPrivate, true)));

describe("reply suggestion", () => {
  test("streams the model's suggestion from the conversation, the contact, the queue and the quick answers", async () => {
    const { ctx, fake, admin, agent } = await aiApp({ apiKey: KEY });
    const { ticketId } = await ticketOf(ctx, agent.user.id, ["Oi, meu pedido 123 não chegou"]);
    const queue = await one(ctx.db.insert(queues).values({ name: "Entregas", color: "#1e88e5" }).returning());
    await ctx.db.update(tickets).set({ queueId: queue.id }).where(eq(tickets.id, ticketId));
    await call(ctx.app, "POST", "/api/quickAnswers", {
      token: admin.token,
      body: { shortcut: "prazo", message: "O prazo de entrega é de 5 dias úteis." },
    });
    fake.reply({ text: "Olá, Ana! Vou verificar o pedido 123 agora.", chunk: 6 });
    const res = await suggest(ctx, ticketId, agent.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = await sseFrames(res);
    expect(frames.filter((f) => f.text).length).toBeGreaterThan(1);
    expect(frames.map((f) => f.text ?? "").join("")).toBe("Olá, Ana! Vou verificar o pedido 123 agora.");
    expect(frames.at(-1)).toEqual({ done: true });
    const prompt = fake.promptText();
    expect(prompt).toContain("Customer's name: Ana");
    expect(prompt).toContain("Queue: Entregas");
    expect(prompt).toContain("[Customer] Oi, meu pedido 123 não chegou");
    expect(prompt).toContain("/prazo: O prazo de entrega é de 5 dias úteis.");
    expect(fake.requests[0]!.body.stream).toBe(true);
    // Nothing was sent or stored on the ticket.
    expect((await ctx.db.select().from(messages).where(eq(messages.ticketId, ticketId))).length).toBe(1);
  });

  test("private notes stay out of the prompt unless the admin allows them; secrets and the number never go in", async () => {
    const { ctx, fake, admin, agent } = await aiApp({ apiKey: KEY });
    const { ticketId } = await ticketOf(ctx, agent.user.id);
    await call(ctx.app, "POST", `/api/messages/${ticketId}`, {
      token: agent.token,
      body: { body: "nota: cliente VIP, senha do cofre 9876", isPrivate: true },
    });
    await sseFrames(await suggest(ctx, ticketId, agent.token));
    const withoutNotes = fake.promptText();
    expect(withoutNotes).not.toContain("cofre");
    await configure(ctx, admin.token, { includeNotes: true });
    await sseFrames(await suggest(ctx, ticketId, agent.token));
    expect(fake.requests[1]!.body.messages.map((m) => m.content).join("\n")).toContain(
      "[Private note by Bia] nota: cliente VIP",
    );
    const settings = await call(ctx.app, "GET", "/api/settings", { token: admin.token });
    const apiToken = settings.json.find((s: { key: string }) => s.key === "userApiToken").value;
    const everything = fake.promptText();
    for (const secret of [KEY, apiToken, "5511988887777", admin.token, agent.token])
      expect(everything).not.toContain(secret);
  });

  test("only who may send on the ticket gets a suggestion, and only while the feature is on", async () => {
    const { ctx, fake, admin, agent } = await aiApp({ features: ["summary"] });
    const { ticketId } = await ticketOf(ctx, agent.user.id);
    const other = await loginAs(ctx, { name: "Caio" });
    expect((await suggest(ctx, ticketId, other.token)).status).toBe(403);
    const off = await suggest(ctx, ticketId, agent.token);
    expect(off.status).toBe(400);
    expect(await off.json()).toMatchObject({ error: "ERR_AI_DISABLED" });
    await configure(ctx, admin.token, { features: ["suggest"] });
    expect((await suggest(ctx, ticketId, agent.token)).status).toBe(200);
    expect(fake.requests).toHaveLength(1);
  });

  test("an endpoint failing before the first piece is an error answer; failing midway ends the stream with its code", async () => {
    const { ctx, fake, agent } = await aiApp({ timeoutMs: 300 });
    const { ticketId } = await ticketOf(ctx, agent.user.id);
    fake.reply({ status: 500 });
    const failed = await suggest(ctx, ticketId, agent.token);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ error: "ERR_AI_ENDPOINT_ERROR" });
    fake.reply({ stall: ["Olá"] });
    const frames = await sseFrames(await suggest(ctx, ticketId, agent.token));
    expect(frames).toEqual([{ text: "Olá" }, { error: "ERR_AI_TIMEOUT" }]);
  });
});

describe("summary", () => {
  test("whoever may see the ticket gets a summary in their language", async () => {
    const { ctx, fake, agent } = await aiApp({});
    const { ticketId } = await ticketOf(ctx, agent.user.id, ["Quero trocar o tamanho da camiseta"]);
    fake.reply({ text: "Customer: Ana\nWants: a different size\nDone: nothing yet\nPending: the exchange" });
    const res = await call(ctx.app, "POST", `/api/tickets/${ticketId}/ai/summary`, {
      token: agent.token,
      headers: { "accept-language": "en" },
    });
    expect(res).toMatchObject({ status: 200, json: { summary: expect.stringContaining("Wants: a different size") } });
    expect(fake.requests[0]!.body.messages[0]!.content).toContain("English");
    expect(fake.promptText()).toContain("Quero trocar o tamanho da camiseta");
  });

  test("a transfer adds the summary as a private note in the background when automatic summaries are on", async () => {
    const { ctx, fake, admin, agent } = await aiApp({ autoSummary: true });
    const { ticketId } = await ticketOf(ctx, agent.user.id);
    fake.reply({ text: "Cliente: Ana\nQuer: o pedido\nFeito: nada\nPendente: rastrear" });
    const moved = await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, {
      token: agent.token,
      body: { userId: admin.user.id },
    });
    expect(moved.status).toBe(200);
    expect(fake.requests).toHaveLength(0);
    await autoSummariesQueued(ctx.deps);
    await ctx.deps.jobs.tick();
    const notes = await notesOf(ctx, ticketId);
    expect(notes.map((n) => [n.body, n.senderName])).toEqual([
      ["Cliente: Ana\nQuer: o pedido\nFeito: nada\nPendente: rastrear", "Resumo (IA)"],
    ]);
  });

  test("reopening a resolved ticket adds a summary note too", async () => {
    const { ctx, fake, agent } = await aiApp({ autoSummary: true });
    const { ticketId } = await ticketOf(ctx, agent.user.id);
    await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: agent.token, body: { status: "closed" } });
    fake.reply({ text: "Pendente: rastrear o pedido" });
    await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, {
      token: agent.token,
      body: { status: "open", userId: agent.user.id },
    });
    await autoSummariesQueued(ctx.deps);
    await ctx.deps.jobs.tick();
    expect((await notesOf(ctx, ticketId)).map((n) => n.body)).toEqual(["Pendente: rastrear o pedido"]);
  });

  test("a failing endpoint leaves the transferred ticket without a note; with automatic summaries off nothing is asked", async () => {
    const { ctx, fake, admin, agent } = await aiApp({ autoSummary: true });
    const { ticketId } = await ticketOf(ctx, agent.user.id);
    fake.reply({ status: 500 });
    await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: agent.token, body: { userId: admin.user.id } });
    await autoSummariesQueued(ctx.deps);
    await ctx.deps.jobs.tick();
    expect(await notesOf(ctx, ticketId)).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    await configure(ctx, admin.token, { autoSummary: false });
    await call(ctx.app, "PUT", `/api/tickets/${ticketId}`, { token: admin.token, body: { userId: agent.user.id } });
    await autoSummariesQueued(ctx.deps);
    await ctx.deps.jobs.tick();
    expect(fake.requests).toHaveLength(1);
  });
});
