// @engine each
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { first } from "../src/db/client";
import { contacts, messages, tickets } from "../src/db/tables";
import { i18nFor } from "../src/i18n/server";
import type { Ticket } from "../src/shared/contracts";
import { previewOf } from "../islands/lib/last-message";
import { highlightPieces } from "../islands/tickets/search-highlight";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

const LRM = "\u200e";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
const PDF = Buffer.from("%PDF-1.4\n%âãÏÓ\n").toString("base64");
const VCARD = "BEGIN:VCARD\nVERSION:3.0\nFN:Maria Souza\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD";

async function setup(greeting = "") {
  const ctx = await makeTestApp();
  const { token, user } = await loginAs(ctx, { profile: "admin" });
  const conn = await createSandboxConnection(ctx, { greetingMessage: greeting });
  return { ctx, token, user, conn };
}

type Ctx = Awaited<ReturnType<typeof setup>>;

const inbound = (s: Ctx, from: string, body: Record<string, unknown>) =>
  call(s.ctx.app, "POST", `/api/sandbox/${s.conn.id}/inbound`, { token: s.token, body: { from, ...body } });

/** The agent accepts the ticket and writes in it; returns the message. */
async function reply(s: Ctx, ticket: Ticket, body: string) {
  const token = s.token;
  await call(s.ctx.app, "PUT", `/api/tickets/${ticket.id}`, { token, body: { status: "open", userId: s.user.id } });
  const res = await call(s.ctx.app, "POST", `/api/messages/${ticket.id}`, { token, body: { body } });
  expect(res.status).toBe(200);
  return res.json.messages[0] as { id: number };
}

async function ticketOf(s: Ctx, from: string): Promise<Ticket> {
  const contact = (await first(s.ctx.db.select().from(contacts).where(eq(contacts.number, from))))!;
  const row = (await first(s.ctx.db.select().from(tickets).where(eq(tickets.contactId, contact.id))))!;
  return (await call(s.ctx.app, "GET", `/api/tickets/${row.id}`, { token: s.token })).json;
}

/** What a row shows of a preview: the kind's icon, then its text. */
const previewText = (t: Parameters<typeof previewOf>[0], p: NonNullable<Ticket["preview"]>) => {
  const { icon, text } = previewOf(t, p);
  return icon ? `[${icon}] ${text}` : text;
};

/** Every kind a customer can send through the sandbox, with what its preview reads in English and in Portuguese. */
const KINDS: { from: string; body: Record<string, unknown>; en: string; pt: string }[] = [
  { from: "5511900000001", body: { body: "Oi, tudo bem?" }, en: "Oi, tudo bem?", pt: "Oi, tudo bem?" },
  {
    from: "5511900000002",
    body: { mediaType: "image", mediaBase64: PNG, fileName: "pic.png", body: "Look at this" },
    en: "[camera] Photo: Look at this",
    pt: "[camera] Foto: Look at this",
  },
  {
    from: "5511900000003",
    body: { mediaType: "image", mediaBase64: PNG, fileName: "pic.png" },
    en: "[camera] Photo",
    pt: "[camera] Foto",
  },
  { from: "5511900000004", body: { mediaType: "video" }, en: "[videocam] Video", pt: "[videocam] Vídeo" },
  { from: "5511900000005", body: { mediaType: "audio" }, en: "[mic] Voice message", pt: "[mic] Mensagem de voz" },
  {
    from: "5511900000006",
    body: { mediaType: "document", mediaBase64: PDF, fileName: "invoice.pdf", body: "the March one" },
    en: "[file] invoice.pdf: the March one",
    pt: "[file] invoice.pdf: the March one",
  },
  {
    from: "5511900000007",
    body: { mediaType: "vcard", body: VCARD },
    en: "[contacts] Maria Souza",
    pt: "[contacts] Maria Souza",
  },
  {
    from: "5511900000008",
    body: { mediaType: "location", body: "Padaria Central|-23.5505, -46.6333" },
    en: "[place] Location: Padaria Central",
    pt: "[place] Localização: Padaria Central",
  },
  {
    from: "5511900000009",
    body: { mediaType: "location", body: "-23.5505,-46.6333" },
    en: "[place] Location",
    pt: "[place] Localização",
  },
  { from: "5511900000010", body: { mediaType: "sticker" }, en: "[emoji] Sticker", pt: "[emoji] Figurinha" },
  { from: "5511900000011", body: { call: "missed" }, en: "[phone] Missed call", pt: "[phone] Chamada perdida" },
];

describe("ticket previews", () => {
  test("each kind of message has a preview the list reads in the viewer's language (en and pt); lastMessage holds no raw vCard", async () => {
    const s = await setup();
    const en = i18nFor("en").t;
    const pt = i18nFor("pt").t;
    for (const kind of KINDS) {
      expect((await inbound(s, kind.from, kind.body)).status).toBe(200);
      const { preview } = await ticketOf(s, kind.from);
      expect(preview).not.toBeNull();
      expect([previewText(en, preview!), previewText(pt, preview!)]).toEqual([kind.en, kind.pt]);
      expect(preview!.fromMe).toBe(false);
    }
    expect(await ticketOf(s, "5511900000007")).toMatchObject({
      lastMessage: "Maria Souza",
      preview: { kind: "vcard", text: "Maria Souza" },
    });
    expect((await ticketOf(s, "5511900000008")).lastMessage).toBe("Padaria Central");
    expect((await ticketOf(s, "5511900000009")).lastMessage).toBe("-23.5505,-46.6333");
    expect((await ticketOf(s, "5511900000011")).preview).toMatchObject({ kind: "call_log", text: "" });
  });

  test("a voice message's length and a place's name come from WhatsApp's own data when it has them", async () => {
    const s = await setup();
    const sink = s.ctx.channels.driverSink;
    const base = { chatId: "5511900000020", isGroup: false, fromMe: false, pushName: "Ana" };
    await sink.onMessage(s.conn.id, {
      ...base,
      id: "VOICE1",
      at: s.ctx.clock.now(),
      kind: "audio",
      body: "",
      raw: JSON.stringify({ message: { audioMessage: { seconds: 72, ptt: true } } }),
    });
    const voice = (await ticketOf(s, "5511900000020")).preview!;
    expect(previewText(i18nFor("en").t, voice)).toBe("[mic] Voice message 1:12");
    await sink.onMessage(s.conn.id, {
      ...base,
      id: "PLACE1",
      at: s.ctx.clock.now() + 1,
      kind: "location",
      body: "data:image/png;base64,AAAA|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|-23.5, -46.6",
      raw: JSON.stringify({ message: { locationMessage: { name: "Museu do Ipiranga", degreesLatitude: -23.5 } } }),
    });
    const place = (await ticketOf(s, "5511900000020")).preview!;
    expect(previewText(i18nFor("pt").t, place)).toBe("[place] Localização: Museu do Ipiranga");
  });

  test("automatic messages (the chatbot's greeting) never replace the customer's message; our own replies show with their ticks", async () => {
    const s = await setup("Hello {{name}}! Welcome");
    const from = "5511900000030";
    await inbound(s, from, { body: "Preciso da segunda via" });
    const bot = await first(s.ctx.db.select().from(messages).where(eq(messages.fromMe, true)));
    expect(bot?.body).toStartWith(`${LRM}Hello`);
    let ticket = await ticketOf(s, from);
    expect(ticket.lastMessage).toBe("Preciso da segunda via");
    expect(ticket.preview).toMatchObject({ kind: "chat", text: "Preciso da segunda via", fromMe: false });
    await reply(s, ticket, "Enviando agora");
    ticket = await ticketOf(s, from);
    expect(ticket).toMatchObject({ lastMessage: "Enviando agora", preview: { text: "Enviando agora", fromMe: true } });
    s.ctx.hub.clear();
    await call(s.ctx.app, "POST", `/api/sandbox/${s.conn.id}/read`, { token: s.token, body: { to: from } });
    await s.ctx.sandbox.network.settle();
    expect((await ticketOf(s, from)).preview!.ack).toBe(4);
    expect(s.ctx.hub.named("ticket").map((e) => e.payload)).toContainEqual(
      expect.objectContaining({ action: "updateAck", ticketId: ticket.id, ack: 4 }),
    );
  });

  test("deleting the previewed message shows the previous one at once, through the ticket update the lists already hear", async () => {
    const s = await setup();
    const from = "5511900000040";
    await inbound(s, from, { body: "Meu pedido não chegou" });
    const ticket = await ticketOf(s, from);
    const sent = await reply(s, ticket, "Mensagem errada");
    expect((await ticketOf(s, from)).preview!.text).toBe("Mensagem errada");
    s.ctx.hub.clear();
    const removed = await call(s.ctx.app, "DELETE", `/api/messages/${sent.id}`, { token: s.token });
    expect(removed).toMatchObject({ status: 200 });
    const after = await ticketOf(s, from);
    expect(after).toMatchObject({
      lastMessage: "Meu pedido não chegou",
      preview: { text: "Meu pedido não chegou", fromMe: false },
    });
    const updates = s.ctx.hub.to("status:open", "ticket").map((e) => e.payload);
    expect(updates).toContainEqual({
      action: "update",
      ticket: expect.objectContaining({ id: ticket.id, preview: after.preview }),
    });
  });

  test("search results carry the message that matched, not the ticket's last message", async () => {
    const s = await setup();
    const from = "5511900000050";
    await inbound(s, from, { body: "Quero trocar o tamanho do pedido 4471" });
    s.ctx.clock.advance(1000);
    await inbound(s, from, { body: "Obrigado!" });
    await inbound(s, "5511900000051", { body: "Nada a ver" });
    const found = await call(s.ctx.app, "GET", "/api/tickets?showAll=true&searchParam=tamanho", { token: s.token });
    expect(found.json.tickets).toHaveLength(1);
    expect(found.json.tickets[0]).toMatchObject({
      lastMessage: "Obrigado!",
      searchMatch: { text: "Quero trocar o tamanho do pedido 4471" },
    });
    const byName = await call(s.ctx.app, "GET", "/api/tickets?showAll=true&searchParam=5511900000051", {
      token: s.token,
    });
    expect(byName.json.tickets[0].searchMatch).toBeNull();
    const list = await call(s.ctx.app, "GET", "/api/tickets?showAll=true&status=pending", { token: s.token });
    expect(list.json.tickets.every((t: Ticket) => t.searchMatch === undefined)).toBe(true);
  });

  test("the highlight marks the words that start with what was searched, case and accents aside, near the start of the row", () => {
    const marked = (text: string, search: string) =>
      highlightPieces(text, search)
        .map((p) => (p.match ? `[${p.text}]` : p.text))
        .join("");
    expect(marked("João quer o Pedido 12", "joao ped")).toBe("[João] quer o [Ped]ido 12");
    expect(marked("desapedido", "ped")).toBe("desapedido");
    expect(marked(`${"x ".repeat(40)}entrega atrasada`, "entrega")).toBe(`…${"x ".repeat(11)}[entrega] atrasada`);
  });
});
