// @engine each
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { connections, contacts, inboundJournal, massMessages, messageReactions, messages } from "../../src/db/tables";
import { BASE, call, loginAs } from "../helpers";
import {
  APP_SECRET,
  CUSTOMER,
  cleanUpCloudApps,
  deliver,
  lastWid,
  messagesSent,
  nowSeconds,
  ORDER_UPDATE_SENT,
  PNG,
  setup,
  statuses,
  stored,
  withTicket,
} from "./cloud-app";
import { notification, postWebhook } from "./fake-graph";

cleanUpCloudApps();

describe("connecting", () => {
  test("a token the Graph API accepts makes the connection CONNECTED with its number, and no QR", async () => {
    const { ctx, id } = await setup();
    const row = await first(ctx.db.select().from(connections).where(eq(connections.id, id)));
    expect(row).toMatchObject({ status: "CONNECTED", number: "551133334444", qrcode: "", statusReason: "" });
  });

  test("a refused token leaves it DISCONNECTED with the Graph API's reason; a corrected token connects it", async () => {
    const { ctx, admin, graph, id } = await setup({ accessToken: "expired-token" });
    const row = await first(ctx.db.select().from(connections).where(eq(connections.id, id)));
    expect(row?.status).toBe("DISCONNECTED");
    expect(row?.statusReason).toContain("Session has expired");
    const put = await call(ctx.app, "PUT", `/api/whatsapp/${id}`, {
      token: admin.token,
      body: { accessToken: graph.token },
    });
    expect(put.status).toBe(200);
    expect((await first(ctx.db.select().from(connections).where(eq(connections.id, id))))?.status).toBe("CONNECTED");
  });
});

describe("webhook handshake", () => {
  test("Meta's subscription check gets its challenge back only with the connection's verify token", async () => {
    const { ctx, id, verifyToken } = await setup();
    expect(verifyToken.length).toBeGreaterThan(20);
    const path = (token: string) =>
      `/api/webhooks/whatsapp-cloud/${id}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const right = await ctx.app.handle(new Request(BASE + path(verifyToken)));
    expect(right.status).toBe(200);
    expect(await right.text()).toBe("1158201444");
    expect((await ctx.app.handle(new Request(BASE + path("guess")))).status).toBe(403);
    const unknown = `/api/webhooks/whatsapp-cloud/${id + 100}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1`;
    expect((await ctx.app.handle(new Request(BASE + unknown))).status).toBe(403);
  });
});

describe("webhook notifications", () => {
  test("a forged or unsigned notification is refused with 401 and nothing of it is stored", async () => {
    const { ctx, graph, id } = await setup();
    const body = notification(graph.phoneNumberId, {
      messages: [
        { from: CUSTOMER, id: "wamid.forged", timestamp: nowSeconds(ctx), type: "text", text: { body: "hi" } },
      ],
    });
    expect((await postWebhook(ctx.app, id, body, { appSecret: "not-the-secret" })).status).toBe(401);
    expect((await postWebhook(ctx.app, id, body, { signature: null })).status).toBe(401);
    await ctx.deps.cloud.settled(id);
    expect(await stored(ctx, id, "wamid.forged")).toBeUndefined();
    expect(await ctx.db.select().from(inboundJournal)).toEqual([]);
  });

  test("a signed notification that is not JSON is refused with 400, one for an unknown connection with 404", async () => {
    const { ctx, id } = await setup();
    expect((await postWebhook(ctx.app, id, "{not json", { appSecret: APP_SECRET })).status).toBe(400);
    expect((await postWebhook(ctx.app, id + 100, {}, { appSecret: APP_SECRET })).status).toBe(404);
  });

  test("a signed text becomes the customer's message in a ticket, under their profile name, once even if sent twice", async () => {
    const { ctx, graph, id } = await setup();
    const body = notification(graph.phoneNumberId, {
      contacts: [{ wa_id: CUSTOMER, profile: { name: "Carla" } }],
      messages: [
        { from: CUSTOMER, id: "wamid.twice", timestamp: nowSeconds(ctx), type: "text", text: { body: "Olá" } },
      ],
    });
    for (let i = 0; i < 2; i++) {
      expect((await postWebhook(ctx.app, id, body, { appSecret: APP_SECRET })).status).toBe(200);
      await ctx.deps.cloud.settled(id);
    }
    const rows = await ctx.db.select().from(messages).where(eq(messages.wid, "wamid.twice"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: "Olá", fromMe: false, mediaType: "chat" });
    const contact = await first(ctx.db.select().from(contacts).where(eq(contacts.number, CUSTOMER)));
    expect(contact?.name).toBe("Carla");
    expect(await ctx.db.select().from(inboundJournal)).toEqual([]);
  });

  test("a body over the size limit is refused with 413 before it is read, and nothing is stored", async () => {
    const { ctx, graph, id } = await setup();
    const huge = notification(graph.phoneNumberId, {
      messages: [
        {
          from: CUSTOMER,
          id: "wamid.huge",
          timestamp: nowSeconds(ctx),
          type: "text",
          text: { body: "x".repeat(600_000) },
        },
      ],
    });
    expect((await postWebhook(ctx.app, id, huge, { appSecret: APP_SECRET })).status).toBe(413);
    expect(await ctx.db.select().from(inboundJournal)).toEqual([]);
  });

  test("a notification taken in while the connection is stopped is kept, and handled once it starts", async () => {
    const { ctx, graph, id } = await setup();
    await ctx.channels.stop(id);
    const body = notification(graph.phoneNumberId, {
      messages: [
        { from: CUSTOMER, id: "wamid.later", timestamp: nowSeconds(ctx), type: "text", text: { body: "wait" } },
      ],
    });
    expect((await postWebhook(ctx.app, id, body, { appSecret: APP_SECRET })).status).toBe(200);
    expect(await stored(ctx, id, "wamid.later")).toBeUndefined();
    expect(await ctx.db.select().from(inboundJournal)).toHaveLength(1);
    await ctx.channels.start(id);
    await ctx.deps.cloud.settled(id);
    expect((await stored(ctx, id, "wamid.later"))?.body).toBe("wait");
    expect(await ctx.db.select().from(inboundJournal)).toEqual([]);
  });

  test("an event another node journaled is handled when the node running the connection is told", async () => {
    const { ctx, id } = await setup();
    const event = {
      kind: "cloud.message",
      message: {
        from: CUSTOMER,
        id: "wamid.elsewhere",
        timestamp: nowSeconds(ctx),
        type: "text",
        text: { body: "hop" },
      },
    };
    await ctx.db.insert(inboundJournal).values({ whatsappId: id, kind: event.kind, payload: JSON.stringify(event) });
    await ctx.deps.cloud.resume(id);
    await ctx.deps.cloud.settled(id);
    expect((await stored(ctx, id, "wamid.elsewhere"))?.body).toBe("hop");
  });

  test("an image is downloaded from its media URL with the token and stored with its caption", async () => {
    const { ctx, graph, id } = await setup();
    const media = graph.addMedia("image/png", PNG);
    await deliver(ctx, graph, id, { type: "image", image: { id: media, mime_type: "image/png", caption: "the bill" } });
    const row = await stored(ctx, id, lastWid());
    expect(row).toMatchObject({ mediaType: "image", body: "the bill", mediaMime: "image/png", mediaState: null });
    expect(new Uint8Array(readFileSync(join(ctx.deps.config.mediaDir, row!.mediaUrl!)))).toEqual(PNG);
    expect(graph.downloads).toEqual([`Bearer ${graph.token}`]);
  });

  test("media over MAX_MEDIA_MB is never downloaded; media the API cannot serve shows as unavailable", async () => {
    const { ctx, graph, id } = await setup({ maxMediaMb: 0.000005 });
    const big = graph.addMedia("image/png", PNG);
    await deliver(ctx, graph, id, { type: "image", image: { id: big, mime_type: "image/png" } });
    expect(await stored(ctx, id, lastWid())).toMatchObject({ mediaType: "image", mediaUrl: null });
    expect(graph.downloads).toEqual([]);
    await deliver(ctx, graph, id, { type: "document", document: { id: "media-gone", mime_type: "application/pdf" } });
    expect(await stored(ctx, id, lastWid())).toMatchObject({ mediaUrl: null, mediaState: "unavailable" });
  });

  test("audio, video, documents with caption and file name, and stickers keep their kind and text", async () => {
    const { ctx, graph, id } = await setup();
    const item = (type: string, mime: string, extra: object = {}) => ({
      type,
      [type]: { id: graph.addMedia(mime, PNG), mime_type: mime, ...extra },
    });
    await deliver(ctx, graph, id, item("audio", "audio/ogg; codecs=opus", { voice: true }));
    expect(await stored(ctx, id, lastWid())).toMatchObject({ mediaType: "audio", mediaMime: "audio/ogg; codecs=opus" });
    await deliver(ctx, graph, id, item("video", "video/mp4", { caption: "look" }));
    expect(await stored(ctx, id, lastWid())).toMatchObject({ mediaType: "video", body: "look" });
    await deliver(ctx, graph, id, item("document", "application/pdf", { caption: "contract", filename: "c.pdf" }));
    expect(await stored(ctx, id, lastWid())).toMatchObject({
      mediaType: "document",
      body: "contract",
      fileName: "c.pdf",
    });
    await deliver(ctx, graph, id, item("sticker", "image/webp"));
    expect(await stored(ctx, id, lastWid())).toMatchObject({ mediaType: "sticker", mediaMime: "image/webp" });
  });

  test("locations, contact cards, button and list replies and unknown kinds read as text", async () => {
    const { ctx, graph, id } = await setup();
    await deliver(ctx, graph, id, { type: "location", location: { latitude: -23.5, longitude: -46.6, name: "Shop" } });
    expect((await stored(ctx, id, lastWid()))?.body).toContain("maps.google.com/maps?q=-23.5%2C-46.6");
    await deliver(ctx, graph, id, {
      type: "contacts",
      contacts: [{ name: { formatted_name: "Bia" }, phones: [{ phone: "+55 11 91234-5678", wa_id: "5511912345678" }] }],
    });
    const card = await stored(ctx, id, lastWid());
    expect(card?.mediaType).toBe("vcard");
    expect(card?.body).toContain("FN:Bia");
    await deliver(ctx, graph, id, {
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "opt-1", title: "Sales" } },
    });
    expect((await stored(ctx, id, lastWid()))?.body).toBe("Sales");
    await deliver(ctx, graph, id, {
      type: "interactive",
      interactive: { type: "list_reply", list_reply: { id: "row-2", title: "Support" } },
    });
    expect((await stored(ctx, id, lastWid()))?.body).toBe("Support");
    await deliver(ctx, graph, id, { type: "order", order: {} });
    expect((await stored(ctx, id, lastWid()))?.body).toContain("Unsupported message (order)");
  });
});

describe("sending", () => {
  test("a text goes out through the outbox once, and its statuses become ticks; a failure marks it failed", async () => {
    const { ctx, graph, id, agent, ticket } = await withTicket();
    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "Hello!" },
    });
    expect(res.status).toBe(200);
    expect(messagesSent(graph).map((s) => s.body)).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: CUSTOMER,
        type: "text",
        text: { body: "Hello!", preview_url: false },
      },
    ]);
    const wid =
      res.json.messages[0].wid ?? (await first(ctx.db.select().from(messages).where(eq(messages.body, "Hello!"))))!.wid;
    const sentId = messagesSent(graph)[0]!.id;
    await statuses(ctx, graph, id, { id: sentId, status: "sent" }, { id: sentId, status: "delivered" });
    expect(await stored(ctx, id, wid)).toMatchObject({ ack: 3, sendState: "sent" });
    await statuses(ctx, graph, id, { id: sentId, status: "read" });
    expect((await stored(ctx, id, wid))?.ack).toBe(4);

    await call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "Second" } });
    const second = messagesSent(graph).at(-1)!.id;
    await statuses(ctx, graph, id, {
      id: second,
      status: "failed",
      errors: [{ code: 131026, title: "Message undeliverable" }],
    });
    const failed = await first(ctx.db.select().from(messages).where(eq(messages.body, "Second")));
    expect(failed?.sendState).toBe("failed");
  });

  test("a reply quotes the customer's message by its Cloud API id, and the customer's reaction lands on ours", async () => {
    const { ctx, graph, id, agent, ticket, inbound } = await withTicket();
    const quoted = await stored(ctx, id, inbound);
    await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "About that", quotedMsg: { id: quoted!.id } },
    });
    expect(messagesSent(graph)[0]!.body.context).toEqual({ message_id: inbound });
    const ours = (await first(ctx.db.select().from(messages).where(eq(messages.body, "About that"))))!;
    await deliver(ctx, graph, id, {
      type: "reaction",
      reaction: { message_id: messagesSent(graph)[0]!.id, emoji: "👍" },
    });
    expect(await ctx.db.select().from(messageReactions).where(eq(messageReactions.messageId, ours.id))).toMatchObject([
      { reactor: CUSTOMER, emoji: "👍" },
    ]);
    await deliver(ctx, graph, id, {
      type: "text",
      text: { body: "quoting you" },
      context: { id: messagesSent(graph)[0]!.id },
    });
    expect((await stored(ctx, id, lastWid()))?.quotedMsgId).toBe(ours.id);
  });

  test("a file is uploaded, then sent by its media id with its caption; reactions and read marks reach the API", async () => {
    const { ctx, graph, id, agent, ticket, inbound } = await withTicket();
    const form = new FormData();
    form.append("medias", new File([PNG], "photo.png", { type: "image/png" }));
    form.append("body", "our catalogue");
    const res = await ctx.app.handle(
      new Request(`${BASE}/api/messages/${ticket.id}`, {
        method: "POST",
        headers: { authorization: `Bearer ${agent.token}` },
        body: form,
      }),
    );
    expect(res.status).toBe(200);
    expect(graph.uploads).toMatchObject([{ mimetype: "image/png", fileName: "photo.png", bytes: PNG }]);
    expect(messagesSent(graph).map((s) => s.body)).toMatchObject([
      { type: "image", image: { id: graph.uploads[0]!.id, caption: "our catalogue" }, to: CUSTOMER },
    ]);
    const quoted = (await stored(ctx, id, inbound))!;
    expect(
      (await call(ctx.app, "POST", `/api/messages/${quoted.id}/react`, { token: agent.token, body: { emoji: "❤️" } }))
        .status,
    ).toBe(200);
    expect(messagesSent(graph).at(-1)!.body).toMatchObject({
      type: "reaction",
      reaction: { message_id: inbound, emoji: "❤️" },
    });
    // Opening the chat to answer read the customer's message.
    expect(graph.sends.filter((s) => s.body.status === "read").map((s) => s.body.message_id)).toEqual([inbound]);
  });

  test("a rate-limited send is tried again and goes out once", async () => {
    const { ctx, graph, agent, ticket } = await withTicket();
    graph.failNext.push({ status: 429, code: 130429, message: "Rate limit hit" });
    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "Later" },
    });
    expect(res.status).toBe(200);
    expect(messagesSent(graph).map((s) => s.body.text)).toEqual([{ body: "Later", preview_url: false }]);
    expect((await first(ctx.db.select().from(messages).where(eq(messages.body, "Later"))))?.sendState).toBe("sent");
  });

  test("an expired token takes the connection down with its reason; the message waits and goes out once it is back", async () => {
    const { ctx, graph, id, admin, agent, ticket } = await withTicket();
    graph.token = "rotated";
    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "Kept" },
    });
    expect(res.status).toBe(200);
    const row = await first(ctx.db.select().from(connections).where(eq(connections.id, id)));
    expect(row).toMatchObject({ status: "DISCONNECTED" });
    expect(row?.statusReason).toContain("Session has expired");
    expect((await first(ctx.db.select().from(messages).where(eq(messages.body, "Kept"))))?.sendState).toBe("queued");
    await call(ctx.app, "PUT", `/api/whatsapp/${id}`, { token: admin.token, body: { accessToken: "rotated" } });
    await ctx.deps.outbox.idle(id);
    expect(messagesSent(graph).map((s) => s.body.text)).toEqual([{ body: "Kept", preview_url: false }]);
    expect((await first(ctx.db.select().from(messages).where(eq(messages.body, "Kept"))))?.sendState).toBe("sent");
  });

  test("more than 24 h after the customer's last message a send is refused before reaching the API", async () => {
    const { ctx, graph, agent, ticket } = await withTicket();
    ctx.clock.advance(24 * 3600 * 1000 + 1000);
    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "Late" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("ERR_OUTSIDE_24H_WINDOW");
    expect(graph.sends).toEqual([]);
    expect(await first(ctx.db.select().from(messages).where(eq(messages.body, "Late")))).toBeUndefined();
  });
});

describe("templates", () => {
  test("agents list the connection's approved templates with their placeholders", async () => {
    const { ctx, id } = await setup();
    const agent = await loginAs(ctx);
    const res = await call(ctx.app, "GET", `/api/whatsapp/${id}/templates`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        name: "order_update",
        language: "pt_BR",
        category: "UTILITY",
        body: "Olá {{1}}, seu pedido {{2}} saiu para entrega.",
        variables: 2,
      },
    ]);
  });

  test("outside the 24 h window a template still goes out, with its placeholders filled, and shows as its text", async () => {
    const { ctx, graph, id, agent, ticket } = await withTicket();
    ctx.clock.advance(30 * 3600 * 1000);
    const send = (parameters: string[]) =>
      call(ctx.app, "POST", `/api/messages/${ticket.id}/template`, {
        token: agent.token,
        body: { name: "order_update", language: "pt_BR", parameters },
      });
    expect((await send(["Carla"])).status).toBe(400);
    const res = await send(["Carla", "#42"]);
    expect(res.status).toBe(200);
    expect(messagesSent(graph).map((s) => s.body)).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: CUSTOMER,
        ...ORDER_UPDATE_SENT,
      },
    ]);
    const row = await first(ctx.db.select().from(messages).where(eq(messages.wid, res.json.messages[0].wid)));
    expect(row).toMatchObject({
      body: "Olá Carla, seu pedido #42 saiu para entrega.",
      sendState: "sent",
      fromMe: true,
    });
    await statuses(ctx, graph, id, { id: messagesSent(graph)[0]!.id, status: "delivered" });
    expect((await first(ctx.db.select().from(messages).where(eq(messages.id, row!.id))))?.ack).toBe(3);
  });
});

describe("campaigns", () => {
  test("a campaign sends to a customer who wrote within 24 h and skips one who never did, with its status", async () => {
    const { ctx, graph, admin, id } = await setup();
    await deliver(ctx, graph, id, { type: "text", text: { body: "Hi" } });
    const stranger = "5511977776666";
    const post = (body: unknown, path: string) => call(ctx.app, "POST", path, { token: admin.token, body });
    expect((await post({ whatsappId: id, limit: 10, minutes: 0, seconds: 1 }, "/api/settingsMessage")).status).toBe(
      200,
    );
    const items = [CUSTOMER, stranger].map((phone) => ({ message: `Offer for ${phone}`, phone, whatsappId: id }));
    expect((await post(items, "/api/bulkMessage")).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      ctx.clock.advance(1000);
      await ctx.deps.jobs.tick();
    }
    const records = await ctx.db.select().from(massMessages).orderBy(asc(massMessages.id));
    expect(records.map((r) => [r.phone, r.status])).toEqual([
      [CUSTOMER, "sent"],
      [stranger, "outside 24h window"],
    ]);
    expect(messagesSent(graph).map((s) => s.body.to)).toEqual([CUSTOMER]);
  });
});

describe("secrets", () => {
  test("agents never see the token, app secret or verify token; admins do over HTTP, never in events", async () => {
    const { ctx, graph, id } = await setup();
    const agent = await loginAs(ctx);
    const admin = await loginAs(ctx, { profile: "admin" });
    const asAgent = await call(ctx.app, "GET", "/api/whatsapp", { token: agent.token });
    const seen = asAgent.json.find((c: { id: number }) => c.id === id);
    expect(seen.phoneNumberId).toBe(graph.phoneNumberId);
    for (const secret of ["accessToken", "appSecret", "verifyToken"]) expect(seen).not.toHaveProperty(secret);
    const one = await call(ctx.app, "GET", `/api/whatsapp/${id}`, { token: agent.token });
    expect(JSON.stringify(one.json)).not.toContain(graph.token);
    const asAdmin = await call(ctx.app, "GET", `/api/whatsapp/${id}`, { token: admin.token });
    expect(asAdmin.json).toMatchObject({ accessToken: graph.token, appSecret: APP_SECRET });
    const frames = JSON.stringify(ctx.hub.sent);
    expect(frames).toContain(`"phoneNumberId":"${graph.phoneNumberId}"`);
    expect(frames).not.toContain(graph.token);
    expect(frames).not.toContain(APP_SECRET);
  });
});

test("the media file of a forged notification is never fetched", async () => {
  const { ctx, graph, id } = await setup();
  const media = graph.addMedia("image/png", PNG);
  const body = notification(graph.phoneNumberId, {
    messages: [{ from: CUSTOMER, id: "wamid.x", timestamp: nowSeconds(ctx), type: "image", image: { id: media } }],
  });
  expect((await postWebhook(ctx.app, id, body, { signature: "sha256=00" })).status).toBe(401);
  expect(graph.downloads).toEqual([]);
  expect(existsSync(ctx.deps.config.mediaDir)).toBe(true);
});
