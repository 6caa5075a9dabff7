// @engine once
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { first, one } from "../../src/db/client";
import { messages, queues, tickets } from "../../src/db/tables";
import { call, createSandboxConnection } from "../helpers";
import { aiApp, configure } from "./setup";

const LRM = "\u200e";
const PHONE = "5511988887777";
const HANDOFF_TEXT = `${LRM}Vou passar você para uma pessoa da nossa equipe; aguarde um momento, por favor.`;

/** A connection whose only queue, Entregas, is answered by the AI step (at most `maxTurns` answers). */
async function botApp(maxTurns = 2) {
  const app = await aiApp({});
  const { ctx, admin } = app;
  const queue = await one(
    ctx.db.insert(queues).values({ name: "Entregas", color: "#1e88e5", greetingMessage: "Olá!" }).returning(),
  );
  const wa = await createSandboxConnection(ctx, { queueIds: [queue.id] });
  await configure(ctx, admin.token, {
    botQueueIds: [queue.id],
    botKnowledge: "As entregas levam 5 dias úteis. Não entregamos aos domingos.",
    botMaxTurns: maxTurns,
  });
  const say = async (body: string) =>
    await call(ctx.app, "POST", `/api/sandbox/${wa.id}/inbound`, { token: admin.token, body: { from: PHONE, body } });
  const sent = async () => {
    await ctx.deps.outbox.idle(wa.id);
    return (await ctx.sandbox.network.outbox(wa.id, PHONE)).map((m: { body: string }) => m.body);
  };
  const ticket = async () => (await first(ctx.db.select().from(tickets)))!;
  const notes = async () =>
    (
      await ctx.db
        .select()
        .from(messages)
        .where(and(eq(messages.ticketId, (await ticket()).id), eq(messages.isPrivate, true)))
    ).map((m) => m.body);
  return { ...app, queue, wa, say, sent, ticket, notes };
}

describe("the chatbot's AI step", () => {
  test("answers the customer from the knowledge, as the bot, and hands over at the next message once it gave its allowed answers", async () => {
    const { fake, say, sent, ticket, notes, queue } = await botApp(2);
    fake.reply({ text: "A entrega leva 5 dias úteis." }, { text: "Não, aos domingos não entregamos." });
    await say("Oi, quanto tempo leva a entrega?");
    await say("Vocês entregam no domingo?");
    expect(await sent()).toEqual([`${LRM}A entrega leva 5 dias úteis.`, `${LRM}Não, aos domingos não entregamos.`]);
    const prompt = fake.requests[0]!.body;
    expect(prompt.messages.map((m) => m.content).join("\n")).toContain("As entregas levam 5 dias úteis.");
    expect(prompt.tools).toEqual([expect.objectContaining({ function: expect.objectContaining({ name: "handoff" }) })]);
    expect(await ticket()).toMatchObject({ isBot: true, queueId: queue.id, status: "pending" });

    fake.reply({ text: "Cliente: Ana\nQuer: prazo de entrega\nFeito: respondido\nPendente: nada" });
    await say("E para o Nordeste?");
    expect((await sent()).at(-1)).toBe(HANDOFF_TEXT);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]!.body.messages[0]!.content).toContain("summarize");
    expect(await ticket()).toMatchObject({ isBot: false, queueId: queue.id, status: "pending", userId: null });
    expect(await notes()).toEqual([
      "O assistente de IA passou a conversa adiante: respondeu o máximo de mensagens permitido.\n\nCliente: Ana\nQuer: prazo de entrega\nFeito: respondido\nPendente: nada",
    ]);
    // A person's turn now: the AI stays quiet.
    await say("Alô?");
    expect(fake.requests).toHaveLength(3);
  });

  test("hands over when the customer asks for a person, without asking the model to answer", async () => {
    const { fake, say, sent, ticket, notes } = await botApp();
    fake.reply({ text: "Cliente quer falar com uma pessoa." });
    await say("Quero falar com um atendente");
    expect(await sent()).toEqual([HANDOFF_TEXT]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.tools).toBeUndefined();
    expect((await ticket()).isBot).toBe(false);
    expect((await notes())[0]).toStartWith("O assistente de IA passou a conversa adiante: o cliente pediu uma pessoa.");
  });

  test("hands over when the model calls handoff", async () => {
    const { fake, say, sent, ticket, notes } = await botApp();
    fake.reply({ toolCall: { name: "handoff", arguments: {} } }, { text: "Resumo" });
    await say("Meu pacote chegou quebrado, quero reembolso");
    expect(await sent()).toEqual([HANDOFF_TEXT]);
    expect((await ticket()).isBot).toBe(false);
    expect(await notes()).toEqual(["O assistente de IA passou a conversa adiante: não conseguiu ajudar.\n\nResumo"]);
  });

  test("hands over on an endpoint error (a 500), with a note that says so and no second request", async () => {
    const { fake, say, sent, ticket, notes } = await botApp();
    fake.reply({ status: 500 });
    await say("Oi");
    expect(await sent()).toEqual([HANDOFF_TEXT]);
    expect(fake.requests).toHaveLength(1);
    expect((await ticket()).isBot).toBe(false);
    expect(await notes()).toEqual(["O assistente de IA passou a conversa adiante: o endpoint de IA falhou."]);
  });
});
