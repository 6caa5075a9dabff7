// @engine once
import { one, first as firstRow, sqliteClient } from "../src/db/client";
import { describe, expect, spyOn, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { OutgoingMedia } from "../src/channels/types";
import { contacts, messages, queues, tickets, type TicketRow } from "../src/db/tables";
import * as sessionUser from "../src/modules/auth/session-user";
import * as connectionsLookup from "../src/modules/connections/lookup";
import { storeMessage } from "../src/modules/messages/store";
import { VOICE_MESSAGE_MARK } from "../src/shared/contracts/tickets";
import { BASE, call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

let seq = 0;
async function seed(ctx: TestContext, values: Partial<TicketRow> = {}, contactId?: number) {
  const cid =
    contactId ??
    (
      await one(
        ctx.db
          .insert(contacts)
          .values({ name: `Lia ${++seq}`, number: `55319${String(seq).padStart(8, "0")}` })
          .returning(),
      )
    ).id;
  return await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: cid, status: "open", ...values })
      .returning(),
  );
}
const queue = async (ctx: TestContext, name: string) =>
  await one(
    ctx.db
      .insert(queues)
      .values({ name, color: `#${name}` })
      .returning(),
  );
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function multipart(
  ctx: TestContext,
  path: string,
  token: string,
  files: { bytes: Uint8Array; name: string; type?: string }[],
  body?: string,
) {
  const form = new FormData();
  for (const f of files)
    form.append(
      "medias",
      new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type ?? "application/octet-stream" }),
    );
  if (body !== undefined) form.append("body", body);
  const res = await ctx.app.handle(
    new Request(BASE + path, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }),
  );
  return { status: res.status, json: await res.json().catch(() => null) };
}

describe("GET /messages/:ticketId", () => {
  test("pages of 20, newest page first but ascending inside, hasMore true then false; opening marks read", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const t = await seed(ctx, { unreadMessages: 25 });
    for (let i = 0; i < 25; i++)
      await storeMessage(ctx.deps, {
        whatsappId: null,
        wid: `w${i}`,
        ticketId: t.id,
        contactId: t.contactId,
        body: `m${i}`,
        fromMe: false,
        at: 1_700_000_000_000 + i * 1000,
      });
    ctx.hub.clear();
    const first = await call(ctx.app, "GET", `/api/messages/${t.id}`, { token });
    expect(first.json).toMatchObject({ count: 25, hasMore: true, ticket: { id: t.id } });
    expect(first.json.messages.map((m: { body: string }) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 5}`),
    );
    const second = await call(ctx.app, "GET", `/api/messages/${t.id}?pageNumber=2`, { token });
    expect(second.json).toMatchObject({ hasMore: false });
    expect(second.json.messages.map((m: { body: string }) => m.body)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect((await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, t.id))))!.unreadMessages).toBe(0);
    expect(ctx.hub.named("ticket").some((e) => e.payload.action === "updateUnread")).toBe(true);
  });

  test("opening a ticket already read writes no row and still announces updateUnread", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const t = await seed(ctx, { unreadMessages: 1 });
    await storeMessage(ctx.deps, {
      whatsappId: null,
      wid: "r1",
      ticketId: t.id,
      contactId: t.contactId,
      body: "oi",
      fromMe: false,
      at: 1_700_000_000_000,
    });
    const changes = () => (sqliteClient(ctx.db).query("select total_changes() as n").get() as { n: number }).n;
    expect((await call(ctx.app, "GET", `/api/messages/${t.id}`, { token })).status).toBe(200);
    const before = changes();
    ctx.hub.clear();
    const again = await call(ctx.app, "GET", `/api/messages/${t.id}`, { token });
    expect(again.json).toMatchObject({ count: 1, ticket: { id: t.id, unreadMessages: 0 } });
    expect(again.json.messages[0]).toMatchObject({ body: "oi", read: true });
    expect(changes()).toBe(before);
    expect(ctx.hub.named("ticket").some((e) => e.payload.action === "updateUnread")).toBe(true);
  });

  test("a message marked read by opening its ticket takes the time of that open as its update time", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const [a, b] = [await seed(ctx, { unreadMessages: 1 }), await seed(ctx, { unreadMessages: 1 })];
    for (const t of [a, b])
      await storeMessage(ctx.deps, {
        whatsappId: null,
        wid: `u${t.id}`,
        ticketId: t.id,
        contactId: t.contactId,
        body: "oi",
        fromMe: false,
        at: 1_700_000_000_000,
      });
    await call(ctx.app, "GET", `/api/messages/${a.id}`, { token });
    // The wall clock (what the column's update default writes) moves past the first open.
    const opened = Date.now();
    while (Date.now() <= opened + 1);
    const before = Date.now();
    await call(ctx.app, "GET", `/api/messages/${b.id}`, { token });
    const row = await firstRow(ctx.db.select().from(messages).where(eq(messages.ticketId, b.id)));
    expect(row!.read).toBe(true);
    expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  test("history spans the contact's tickets the user may see, never another queue's", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const { token } = await loginAs(ctx, { queueIds: [a.id] });
    const mine = await seed(ctx, { queueId: a.id });
    const old = await seed(ctx, { queueId: null, status: "closed" }, mine.contactId);
    const secret = await seed(ctx, { queueId: b.id, status: "closed" }, mine.contactId);
    await ctx.db.insert(messages).values([
      { wid: "1", ticketId: old.id, body: "old" },
      { wid: "2", ticketId: secret.id, body: "secret" },
      { wid: "3", ticketId: mine.id, body: "now" },
    ]);
    const res = await call(ctx.app, "GET", `/api/messages/${mine.id}`, { token });
    expect(res.json.messages.map((m: { body: string }) => m.body).sort()).toEqual(["now", "old"]);
    expect(await call(ctx.app, "GET", `/api/messages/${secret.id}`, { token })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect(await call(ctx.app, "GET", "/api/messages/999", { token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TICKET_FOUND" },
    });
  });
});

describe("POST /messages/:ticketId", () => {
  test("sends the agent's text as typed on the ticket's connection, quoted when asked", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    const number = (await firstRow(ctx.db.select().from(contacts).where(eq(contacts.id, t.contactId))))!.number;
    const quoted = (
      await storeMessage(ctx.deps, {
        whatsappId: wa.id,
        wid: "IN1",
        ticketId: t.id,
        contactId: t.contactId,
        body: "question",
        fromMe: false,
      })
    ).message;
    const res = await call(ctx.app, "POST", `/api/messages/${t.id}`, {
      token,
      body: { body: "hi {{name}}", quotedMsg: { id: quoted.id } },
    });
    expect(res.status).toBe(200);
    const out = await ctx.sandbox.network.outbox(wa.id, number!);
    expect(out.map((m) => [m.body, m.quotedId])).toEqual([["hi {{name}}", "IN1"]]);
    const stored = (await firstRow(ctx.db.select().from(messages).where(eq(messages.body, "hi {{name}}"))))!;
    expect(stored).toMatchObject({ fromMe: true, read: true, quotedMsgId: quoted.id });
    expect((await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, t.id))))!).toMatchObject({
      lastMessage: "hi {{name}}",
      unreadMessages: 0,
    });
  });

  test("refusals: not theirs 403 (their own ticket in another queue is allowed), not open ERR_TICKET_NOT_OPEN, blank 400, bad JSON 400, unknown quote", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx, { queueIds: [a.id] });
    const other = await loginAs(ctx, { queueIds: [a.id] });
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id, queueId: a.id });
    const hidden = await seed(ctx, { userId: user.id, whatsappId: wa.id, queueId: b.id });
    const pending = await seed(ctx, { userId: user.id, whatsappId: wa.id, status: "pending" });
    const post = (id: number, body: unknown, tk = token) =>
      call(ctx.app, "POST", `/api/messages/${id}`, { token: tk, body });
    expect(await post(t.id, { body: "x" }, other.token)).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect((await post(hidden.id, { body: "x" })).status).toBe(200);
    expect(await post(pending.id, { body: "x" })).toMatchObject({
      status: 400,
      json: { error: "ERR_TICKET_NOT_OPEN" },
    });
    expect(await post(t.id, { body: "   " })).toMatchObject({ status: 400, json: { field: "body" } });
    expect(await post(t.id, { body: 42 })).toMatchObject({ status: 400, json: { error: "ERR_INVALID_BODY" } });
    expect(await post(t.id, [1])).toMatchObject({ status: 400 });
    expect(await post(t.id, { body: "x", quotedMsg: { id: 999 } })).toMatchObject({
      status: 400,
      json: { error: "ERR_FETCH_WAPP_MSG" },
    });
    const raw = await ctx.app.handle(
      new Request(`${BASE}/api/messages/${t.id}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{nope",
      }),
    );
    expect(raw.status).toBe(400);
  });

  test("an agent cannot post into an unassigned ticket of another queue", async () => {
    const ctx = await makeTestApp();
    const a = await queue(ctx, "A");
    const b = await queue(ctx, "B");
    const wa = await createSandboxConnection(ctx);
    const { token } = await loginAs(ctx, { queueIds: [a.id] });
    const t = await seed(ctx, { whatsappId: wa.id, queueId: b.id });
    expect(await call(ctx.app, "POST", `/api/messages/${t.id}`, { token, body: { body: "x" } })).toMatchObject({
      status: 403,
    });
  });

  test("multipart files are stored under random names with sniffed types and sent one message each", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    const res = await multipart(
      ctx,
      `/api/messages/${t.id}`,
      token,
      [
        { bytes: PNG, name: "../../evil.html", type: "text/html" },
        { bytes: new TextEncoder().encode("%PDF-1.4 hello"), name: "report.pdf" },
      ],
      "caption",
    );
    expect(res.status).toBe(200);
    const rows = await ctx.db.select().from(messages).where(eq(messages.ticketId, t.id)).orderBy(messages.id);
    expect(rows.map((r) => [r.mediaType, r.mediaMime, r.fileName, r.body])).toEqual([
      ["image", "image/png", "evil.html", "caption"],
      ["document", "application/pdf", "report.pdf", "report.pdf"],
    ]);
    expect(rows[0]!.mediaUrl).toMatch(/^[0-9a-f-]{36}\.png$/);
  });

  test("a panel send checks the session once: the request guard's check before the body serves the route too", async () => {
    const ctx = await makeTestApp({ apiUserLimits: { inFlight: 1, perSecond: 1, burst: 2 } });
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    const sessionLookups = spyOn(sessionUser, "currentSessionUser");
    try {
      const res = await multipart(ctx, `/api/messages/${t.id}`, token, [{ bytes: PNG, name: "a.png" }], "caption");
      expect(res.status).toBe(200);
      expect(sessionLookups).toHaveBeenCalledTimes(1);
    } finally {
      sessionLookups.mockRestore();
    }
    // The user's limiter still admits each request once and releases it once its answer is out: a burst of two
    // (the clock stands still) leaves room for one more send after it, not two.
    await new Promise((resolve) => setImmediate(resolve));
    const again = () => call(ctx.app, "POST", `/api/messages/${t.id}`, { token, body: { body: "again" } });
    expect([(await again()).status, (await again()).status]).toEqual([200, 429]);
  });

  test("a send reads the connection's provider at most once, and a provider change applies from the next send", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const admin = await loginAs(ctx, { profile: "admin" });
    const t = await seed(ctx, { userId: admin.user.id, whatsappId: wa.id });
    const send = (body: string) =>
      call(ctx.app, "POST", `/api/messages/${t.id}`, { token: admin.token, body: { body } });
    const edit = (body: Record<string, unknown>) =>
      call(ctx.app, "PUT", `/api/whatsapp/${wa.id}`, { token: admin.token, body });
    const lookups = spyOn(connectionsLookup, "connectionProvider");
    try {
      expect((await edit({ name: "Renamed" })).status).toBe(200);
      expect((await send("first")).status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);
      expect((await send("second")).status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);

      expect((await edit({ provider: "baileys" })).status).toBe(200);
      const refused = await send("third");
      expect(lookups).toHaveBeenCalledTimes(2);
      expect(refused).toMatchObject({ status: 400, json: { error: "ERR_WAPP_NOT_INITIALIZED" } });
    } finally {
      lookups.mockRestore();
    }
  });

  test("a chat voice recording (ogg or audio-only webm named audio-record-site-*) goes as a voice note; other audio does not", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    const sent: OutgoingMedia[] = [];
    const original = ctx.deps.channels.sendMedia.bind(ctx.deps.channels);
    ctx.deps.channels.sendMedia = (id, to, isGroup, media, opts) => {
      sent.push(media);
      return original(id, to, isGroup, media, opts);
    };
    const pad = (head: number[] | string) => {
      const out = new Uint8Array(12_000);
      out.set(typeof head === "string" ? [...head].map((c) => c.charCodeAt(0)) : head);
      return out;
    };
    const webmHead = [
      0x1a,
      0x45,
      0xdf,
      0xa3,
      0,
      ..."webm".split("").map((c) => c.charCodeAt(0)),
      0x86,
      ..."A_OPUS".split("").map((c) => c.charCodeAt(0)),
    ];
    const res = await multipart(ctx, `/api/messages/${t.id}`, token, [
      { bytes: pad("OggS"), name: "audio-record-site-1700000000000.ogg", type: "audio/ogg" },
      { bytes: pad(webmHead), name: "audio-record-site-1700000000001.webm", type: "audio/webm" },
      { bytes: pad("OggS"), name: "song.ogg", type: "audio/ogg" },
    ]);
    expect(res.status).toBe(200);
    expect(sent.map((m) => [m.mimetype, m.fileName, m.ptt ?? false])).toEqual([
      ["audio/ogg", "audio-record-site-1700000000000.ogg", true],
      ["audio/webm", "audio-record-site-1700000000001.webm", true],
      ["audio/ogg", "song.ogg", false],
    ]);
    const rows = await ctx.db.select().from(messages).where(eq(messages.ticketId, t.id)).orderBy(messages.id);
    expect(rows.map((r) => r.mediaType)).toEqual(["audio", "audio", "audio"]);
  });

  test("an mp3 voice recording goes as a voice note and the ticket's last message is the voice mark, not the file name; an inbound voice note too", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    const sent: OutgoingMedia[] = [];
    const original = ctx.deps.channels.sendMedia.bind(ctx.deps.channels);
    ctx.deps.channels.sendMedia = (id, to, isGroup, media, opts) => {
      sent.push(media);
      return original(id, to, isGroup, media, opts);
    };
    const mp3 = new Uint8Array(12_000);
    mp3.set([0x49, 0x44, 0x33, 4, 0]); // "ID3"
    const res = await multipart(ctx, `/api/messages/${t.id}`, token, [
      { bytes: mp3, name: "audio-record-site-1700000000002.mp3", type: "audio/mpeg" },
    ]);
    expect(res.status).toBe(200);
    expect(sent.map((m) => [m.mimetype, m.fileName, m.ptt ?? false])).toEqual([
      ["audio/mpeg", "audio-record-site-1700000000002.mp3", true],
    ]);
    const lastMessage = async () =>
      (await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, t.id))))!.lastMessage;
    expect(await lastMessage()).toBe(VOICE_MESSAGE_MARK);

    await storeMessage(ctx.deps, {
      whatsappId: wa.id,
      wid: "in-text",
      ticketId: t.id,
      contactId: t.contactId,
      body: "oi",
      fromMe: false,
    });
    expect(await lastMessage()).toBe("oi");
    await storeMessage(ctx.deps, {
      whatsappId: wa.id,
      wid: "in-voice",
      ticketId: t.id,
      contactId: t.contactId,
      body: "audio.ogg",
      fromMe: false,
      mediaType: "audio",
      mediaMime: "audio/ogg",
      fileName: "audio.ogg",
    });
    expect(await lastMessage()).toBe(VOICE_MESSAGE_MARK);
  });

  test("an image over 5 MB is refused with 413 ERR_MEDIA_TOO_LARGE and nothing is sent", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    const res = await multipart(ctx, `/api/messages/${t.id}`, token, [{ bytes: big, name: "big.png" }]);
    expect(res).toMatchObject({ status: 413, json: { error: "ERR_MEDIA_TOO_LARGE" } });
    expect(await ctx.db.select().from(messages)).toHaveLength(0);
  });
});

describe("DELETE /messages/:id", () => {
  test("own messages are deleted for everyone and marked deleted; others' are ERR_DELETE_WAPP_MSG", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { user, token } = await loginAs(ctx);
    const t = await seed(ctx, { userId: user.id, whatsappId: wa.id });
    await call(ctx.app, "POST", `/api/messages/${t.id}`, { token, body: { body: "oops" } });
    const own = (await firstRow(ctx.db.select().from(messages).where(eq(messages.body, "oops"))))!;
    const theirs = (
      await storeMessage(ctx.deps, {
        whatsappId: wa.id,
        wid: "T1",
        ticketId: t.id,
        contactId: t.contactId,
        body: "hey",
        fromMe: false,
      })
    ).message;
    ctx.hub.clear();
    expect(await call(ctx.app, "DELETE", `/api/messages/${theirs.id}`, { token })).toMatchObject({
      status: 400,
      json: { error: "ERR_DELETE_WAPP_MSG" },
    });
    expect((await call(ctx.app, "DELETE", `/api/messages/${own.id}`, { token })).status).toBe(200);
    expect((await firstRow(ctx.db.select().from(messages).where(eq(messages.id, own.id))))!.isDeleted).toBe(true);
    expect(ctx.hub.to(`ticket:${t.id}`, "appMessage")[0]!.payload).toMatchObject({
      action: "update",
      message: { id: own.id, isDeleted: true },
    });
    expect(await call(ctx.app, "DELETE", "/api/messages/999", { token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_MESSAGE_FOUND" },
    });
  });
});

describe("inbound through the sandbox", () => {
  test("a contact's message shows in the list with unread 1, and opening the chat resets it", async () => {
    const ctx = await makeTestApp();
    const wa = await createSandboxConnection(ctx);
    const { token } = await loginAs(ctx, { profile: "admin" });
    await ctx.sandbox.inbound(wa.id, { from: "5561999990000", name: "Rita", body: "olá" });
    const list = await call(ctx.app, "GET", "/api/tickets?showAll=true", { token });
    expect(list.json.tickets).toHaveLength(1);
    const t = list.json.tickets[0];
    expect(t).toMatchObject({ unreadMessages: 1, lastMessage: "olá", contact: { number: "5561999990000" } });
    const history = await call(ctx.app, "GET", `/api/messages/${t.id}`, { token });
    expect(history.json.messages.map((m: { body: string }) => m.body)).toEqual(["olá"]);
    expect((await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, t.id))))!.unreadMessages).toBe(0);
  });
});
