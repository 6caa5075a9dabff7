// @engine each
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { interactivePayload } from "../../src/channels/cloud/interactive";
import { chatbots, connections } from "../../src/db/tables";
import { cleanUpCloudApps, customerTicket, deliver, messagesSent, withQueues } from "./cloud-app";

cleanUpCloudApps();

const LONG = "Segunda via de boleto e negociação de dívidas";

/** A cloud connection with queues Sales and Support (Support has a chatbot), menus styled as `style`. */
async function withMenus(style: "text" | "button" | "list") {
  const s = await withQueues(style);
  await s.ctx.db.update(connections).set({ greetingMessage: "Welcome!" }).where(eq(connections.id, s.id));
  const options = ["Internet", "Phone", "TV", LONG].map((name) => ({
    name,
    greetingMessage: `About ${name}`,
    queueId: s.support.id,
  }));
  await s.ctx.db.insert(chatbots).values(options);
  return s;
}

const lastSent = (graph: Parameters<typeof messagesSent>[0]) => messagesSent(graph).at(-1)!.body;

describe("chatbot menus on a cloud connection", () => {
  test("with chatBotType button the queue menu goes as reply buttons, and tapping one picks that queue", async () => {
    const { ctx, graph, id, support } = await withMenus("button");
    await deliver(ctx, graph, id, { type: "text", text: { body: "Hi" } });
    expect(lastSent(graph)).toMatchObject({
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "\u200eWelcome!" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "1", title: "Sales" } },
            { type: "reply", reply: { id: "2", title: "Support" } },
          ],
        },
      },
    });
    await deliver(ctx, graph, id, {
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "2", title: "Support" } },
    });
    expect((await customerTicket(ctx)).queueId).toBe(support.id);
  });

  test("a menu of more than 3 options goes as a list with cut titles, and a row chosen answers like its number", async () => {
    const { ctx, graph, id } = await withMenus("button");
    await deliver(ctx, graph, id, { type: "text", text: { body: "Hi" } });
    ctx.clock.advance(5000);
    await deliver(ctx, graph, id, {
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "2", title: "Support" } },
    });
    expect(lastSent(graph)).toMatchObject({
      type: "interactive",
      interactive: {
        type: "list",
        body: { text: "\u200eSupport here\n\n*#* Voltar para o menu principal" },
        action: {
          button: "Escolha uma opção",
          sections: [
            {
              rows: [
                { id: "1", title: "Internet" },
                { id: "2", title: "Phone" },
                { id: "3", title: "TV" },
                { id: "4", title: "Segunda via de boleto e…", description: LONG },
              ],
            },
          ],
        },
      },
    });
    ctx.clock.advance(5000);
    await deliver(ctx, graph, id, {
      type: "interactive",
      interactive: { type: "list_reply", list_reply: { id: "4", title: "Segunda via de boleto e…" } },
    });
    expect(lastSent(graph)).toMatchObject({ type: "text", text: { body: `\u200eAbout ${LONG}` } });
  });

  test("an invalid answer gets the same choices again, saying it was invalid", async () => {
    const { ctx, graph, id } = await withMenus("list");
    await deliver(ctx, graph, id, { type: "text", text: { body: "Hi" } });
    expect(lastSent(graph)).toMatchObject({ interactive: { type: "list" } });
    ctx.clock.advance(61_000);
    await deliver(ctx, graph, id, { type: "text", text: { body: "what?" } });
    const again = lastSent(graph) as { interactive: { body: { text: string }; action: { sections: unknown[] } } };
    expect(again.interactive.body.text).toBe(
      "\u200eOpção inválida. Responda com o número de uma das opções:\n\nWelcome!",
    );
    expect(again.interactive.action.sections).toEqual([
      {
        rows: [
          { id: "1", title: "Sales" },
          { id: "2", title: "Support" },
        ],
      },
    ]);
  });

  test("with chatBotType text the menu stays numbered text", async () => {
    const { ctx, graph, id } = await withMenus("text");
    await deliver(ctx, graph, id, { type: "text", text: { body: "Hi" } });
    expect(lastSent(graph)).toMatchObject({
      type: "text",
      text: { body: "\u200eWelcome!\n\n*1* - Sales\n*2* - Support" },
    });
  });
});

describe("interactive menu payloads", () => {
  const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `${i + 1}`, title: `Option ${i + 1}` }));
  const menu = { text: "Pick one", button: "Choose an option" };

  test("reply buttons hold at most 3 options with titles of 20 characters; lists 10 rows; more is sent as text", () => {
    const buttons = interactivePayload({
      ...menu,
      style: "button",
      options: [{ id: "1", title: "A title well over twenty characters" }],
    });
    expect(buttons).toMatchObject({
      type: "button",
      action: { buttons: [{ reply: { id: "1", title: "A title well over t…" } }] },
    });
    expect(interactivePayload({ ...menu, style: "list", options: options(2) })).toMatchObject({ type: "list" });
    expect(interactivePayload({ ...menu, style: "button", options: options(10) })).toMatchObject({ type: "list" });
    expect(interactivePayload({ ...menu, style: "list", options: options(11) })).toBeUndefined();
    expect(interactivePayload({ ...menu, text: "x".repeat(1025), style: "list", options: options(2) })).toBeUndefined();
  });
});
