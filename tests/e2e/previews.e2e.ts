import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { connectionQueues, connections, contacts, queues, ticketDialogs, tickets } from "../../src/db/tables";
import { addSandboxConnection, addUser, bootE2E, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
const ADMIN = { email: "pia@example.com", password: "secret-123", name: "Pia Preview" };
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
const PDF = Buffer.from("%PDF-1.4\n%âãÏÓ\n").toString("base64");
const VCARD = "BEGIN:VCARD\nVERSION:3.0\nFN:Maria Souza\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD";

/** One waiting ticket per kind of message, each from its own customer, in the order they arrive. */
const ARRIVALS = [
  { from: "5511910000001", name: "Texto", body: "Quero trocar o tamanho do pedido 4471" },
  { from: "5511910000002", name: "Foto", mediaType: "image", mediaBase64: PNG, fileName: "a.png", body: "Look" },
  { from: "5511910000003", name: "Audio", mediaType: "audio" },
  { from: "5511910000004", name: "Doc", mediaType: "document", mediaBase64: PDF, fileName: "invoice.pdf" },
  { from: "5511910000005", name: "Cartao", mediaType: "vcard", body: VCARD },
  { from: "5511910000006", name: "Lugar", mediaType: "location", body: "Padaria Central|-23.5505, -46.6333" },
  { from: "5511910000007", name: "Figura", mediaType: "sticker" },
  { from: "5511910000008", call: "missed" },
] as const;

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
  // The greeting goes to every new customer: the rows must still show what the customer wrote.
  await env.deps.db
    .update(connections)
    .set({ greetingMessage: "Hello {{name}}! Welcome to Zapdesk" })
    .where(eq(connections.id, whatsappId));
  for (const message of ARRIVALS) await env.sandbox.inbound(whatsappId, message);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** What the Waiting list's rows read (each kind's icon is drawn beside its text), in English and in Portuguese. */
const EXPECTED = {
  "en-US": [
    "Quero trocar o tamanho do pedido 4471",
    "Photo: Look",
    "Voice message",
    "invoice.pdf",
    "Maria Souza",
    "Location: Padaria Central",
    "Sticker",
    "Missed call",
  ],
  "pt-BR": [
    "Quero trocar o tamanho do pedido 4471",
    "Foto: Look",
    "Mensagem de voz",
    "invoice.pdf",
    "Maria Souza",
    "Localização: Padaria Central",
    "Figurinha",
    "Chamada perdida",
  ],
};

describe("ticket list previews", () => {
  test("each kind reads in the viewer's language, never the greeting, raw vCards or coordinates; search marks the match", async () => {
    for (const [locale, expected] of Object.entries(EXPECTED)) {
      const { context, page, errors } = await openPage(env.browser, { locale });
      await signIn(page, env.base, ADMIN);
      await page.goto(`${env.base}/tickets?sub=pending`);
      const rows = page.locator(".ticket-list .row-last");
      await page.waitForFunction(
        (n) => document.querySelectorAll(".ticket-list .row-last").length >= n,
        expected.length,
      );
      const shown = await rows.allInnerTexts();
      expect([...shown].sort()).toEqual([...expected].sort());
      expect(shown.join("\n")).not.toMatch(/Hello|BEGIN:VCARD|-23\.55/);
      expect(await page.locator(".ticket-list .row-kind svg").count()).toBe(expected.length - 1);
      await snapshot(page, `previews-${locale}`);

      await page.goto(`${env.base}/tickets?tab=search&q=tamanho`);
      const mark = page.locator(".ticket-list .row-last mark");
      await mark.first().waitFor();
      expect(await mark.allInnerTexts()).toEqual(["tamanho"]);
      expect(await rows.first().textContent()).toBe("Quero trocar o tamanho do pedido 4471");
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 60_000);
});

describe("chatbot manners", () => {
  test("invalid answers get no second menu within a minute; the third stops the bot and the chat says why", async () => {
    const { db } = env.deps;
    for (const [name, color] of [
      ["Vendas", "#00897b"],
      ["Suporte", "#5e35b1"],
    ]) {
      const [queue] = await db.insert(queues).values({ name: name!, color: color! }).returning();
      await db.insert(connectionQueues).values({ whatsappId, queueId: queue!.id });
    }
    const from = "5511920000001";
    await env.sandbox.inbound(whatsappId, { from, name: "Bia Bot", body: "Oi" });
    const [contact] = await db.select().from(contacts).where(eq(contacts.number, from));
    const [ticket] = await db.select().from(tickets).where(eq(tickets.contactId, contact!.id));
    // The menu went out a while ago (past the burst of lines typed with the first), but less than a minute.
    await db
      .update(ticketDialogs)
      .set({ menuSentAt: new Date(Date.now() - 10_000) })
      .where(eq(ticketDialogs.ticketId, ticket!.id));
    for (const body of ["banana", "kiwi", "uva"]) await env.sandbox.inbound(whatsappId, { from, body });
    const sent = await env.sandbox.network.outbox(whatsappId, from);
    expect(sent.map((m) => m.body)).toEqual(["\u200eHello Bia Bot! Welcome to Zapdesk\n\n*1* - Vendas\n*2* - Suporte"]);

    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${ticket!.id}?sub=pending`);
    await page
      .locator(".event-separator", { hasText: "The chatbot stopped after 3 invalid answers: the customer waits" })
      .waitFor();
    await page.locator(`li[data-ticket-id="${ticket!.id}"] .row-last`, { hasText: "uva" }).waitFor();
    await snapshot(page, "bot-stopped");
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
