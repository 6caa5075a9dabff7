// @engine once
import { one, first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, queues, tickets, connections, type TicketRow } from "../src/db/tables";
import { storeMessage } from "../src/modules/messages/store";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

let seq = 0;

/** Two queues, an agent in each, an admin, and a running default sandbox connection. */
async function twoQueues() {
  const ctx = await makeTestApp();
  const q1 = await one(ctx.db.insert(queues).values({ name: "Queue one", color: "#111" }).returning());
  const q2 = await one(ctx.db.insert(queues).values({ name: "Queue two", color: "#222" }).returning());
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent1 = await loginAs(ctx, { queueIds: [q1.id] });
  const agent2 = await loginAs(ctx, { queueIds: [q2.id] });
  const connection = await createSandboxConnection(ctx, { isDefault: true });
  return { ctx, q1, q2, admin, agent1, agent2, connection };
}

/** A contact with one ticket (open unless said otherwise). */
async function seedTicket(ctx: TestContext, values: Partial<TicketRow> = {}, contactId?: number) {
  const id =
    contactId ??
    (
      await one(
        ctx.db
          .insert(contacts)
          .values({ name: `Customer ${++seq}`, number: `55119${String(seq).padStart(8, "0")}` })
          .returning(),
      )
    ).id;
  return await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: id, status: "open", ...values })
      .returning(),
  );
}

const numberOf = async (ctx: TestContext, contactId: number) =>
  (await first(ctx.db.select({ number: contacts.number }).from(contacts).where(eq(contacts.id, contactId))))!.number;

describe("contact numbers", () => {
  test("H2: an agent cannot re-point another queue's contact to a new number", async () => {
    const { ctx, q1, q2, admin, agent1, agent2 } = await twoQueues();
    const ticket = await seedTicket(ctx, { queueId: q2.id, status: "pending" });
    const original = await numberOf(ctx, ticket.contactId);

    const attack = await call(ctx.app, "PUT", `/api/contacts/${ticket.contactId}`, {
      token: agent1.token,
      body: { number: "5511977770001" },
    });
    expect(attack).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    expect(await numberOf(ctx, ticket.contactId)).toBe(original);
    // The rest of the contact stays editable by everyone, and sending the same number is no change.
    expect(
      (
        await call(ctx.app, "PUT", `/api/contacts/${ticket.contactId}`, {
          token: agent1.token,
          body: { name: "Renamed", number: original },
        })
      ).status,
    ).toBe(200);

    // An agent who sees every active ticket of the contact may change it, and so may an admin.
    expect(
      await call(ctx.app, "PUT", `/api/contacts/${ticket.contactId}`, {
        token: agent2.token,
        body: { number: "5511977770002" },
      }),
    ).toMatchObject({ status: 200, json: { number: "5511977770002" } });
    expect(
      await call(ctx.app, "PUT", `/api/contacts/${ticket.contactId}`, {
        token: admin.token,
        body: { number: "5511977770003" },
      }),
    ).toMatchObject({ status: 200, json: { number: "5511977770003" } });

    // One active ticket in a queue the agent cannot see is enough to refuse, whatever else the contact has.
    await seedTicket(ctx, { queueId: q1.id, status: "closed" }, ticket.contactId);
    expect(
      (
        await call(ctx.app, "PUT", `/api/contacts/${ticket.contactId}`, {
          token: agent1.token,
          body: { number: "5511977770004" },
        })
      ).status,
    ).toBe(403);
    await ctx.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, ticket.id));
    expect(
      (
        await call(ctx.app, "PUT", `/api/contacts/${ticket.contactId}`, {
          token: agent1.token,
          body: { number: "5511977770004" },
        })
      ).status,
    ).toBe(200);
  });
});

describe("quotes", () => {
  test("M1: a quote reaches only those who may see the quoted message's ticket", async () => {
    const { ctx, q1, q2, admin, agent1, connection } = await twoQueues();
    const mine = await seedTicket(ctx, { queueId: q1.id, userId: agent1.user.id, whatsappId: connection.id });
    const secret = await seedTicket(
      ctx,
      { queueId: q2.id, status: "closed", whatsappId: connection.id },
      mine.contactId,
    );
    const pin = (
      await storeMessage(ctx.deps, {
        whatsappId: connection.id,
        wid: "PIN-1",
        ticketId: secret.id,
        contactId: null,
        body: "Your PIN is 4821",
        fromMe: true,
      })
    ).message;
    const own = (
      await storeMessage(ctx.deps, {
        whatsappId: connection.id,
        wid: "HELLO-1",
        ticketId: mine.id,
        contactId: mine.contactId,
        body: "hello",
        fromMe: false,
      })
    ).message;

    // Sending: quoting another queue's message is refused like an unknown one, and nothing goes out.
    const refused = await call(ctx.app, "POST", `/api/messages/${mine.id}`, {
      token: agent1.token,
      body: { body: "as you said", quotedMsg: { id: pin.id } },
    });
    expect(refused).toMatchObject({ status: 400, json: { error: "ERR_FETCH_WAPP_MSG" } });
    expect(await ctx.sandbox.network.outbox(connection.id)).toHaveLength(0);
    expect(
      (
        await call(ctx.app, "POST", `/api/messages/${mine.id}`, {
          token: agent1.token,
          body: { body: "about that", quotedMsg: { id: own.id } },
        })
      ).status,
    ).toBe(200);

    // Reading: a message of this ticket that quotes the other queue's message (e.g. the customer replied to it).
    ctx.hub.clear();
    await storeMessage(ctx.deps, {
      whatsappId: connection.id,
      wid: "REPLY-1",
      ticketId: mine.id,
      contactId: mine.contactId,
      body: "what PIN?",
      fromMe: false,
      quotedWid: "PIN-1",
    });
    const live = ctx.hub.named("appMessage").filter((e) => e.payload.action === "create");
    expect(live.length).toBeGreaterThan(0);
    for (const e of live) expect(e.payload.message.quotedMsg).toBeNull();
    const quoteOf = (
      res: { json: { messages: { body: string; quotedMsg: { body: string } | null }[] } },
      body: string,
    ) => res.json.messages.find((m) => m.body === body)!.quotedMsg;
    expect(
      quoteOf(await call(ctx.app, "GET", `/api/messages/${mine.id}`, { token: agent1.token }), "what PIN?"),
    ).toBeNull();
    expect(
      quoteOf(await call(ctx.app, "GET", `/api/messages/${mine.id}`, { token: agent1.token }), "about that"),
    ).toMatchObject({ body: "hello" });
    expect(
      quoteOf(await call(ctx.app, "GET", `/api/messages/${mine.id}`, { token: admin.token }), "what PIN?"),
    ).toMatchObject({ body: "Your PIN is 4821" });
  });
});

describe("deleting a queue", () => {
  test("M7: a queue with tickets is deleted only by moving them to another queue, never leaving them queue-less", async () => {
    const { ctx, q1, q2, admin, agent2 } = await twoQueues();
    const q3 = await one(ctx.db.insert(queues).values({ name: "Queue three", color: "#333" }).returning());
    const open = await seedTicket(ctx, { queueId: q1.id });
    const closed = await seedTicket(ctx, { queueId: q1.id, status: "closed" });
    const queueOf = async (id: number) =>
      (await first(ctx.db.select({ queueId: tickets.queueId }).from(tickets).where(eq(tickets.id, id))))!.queueId;

    expect(await call(ctx.app, "DELETE", `/api/queue/${q1.id}`, { token: admin.token })).toMatchObject({
      status: 400,
      json: { error: "ERR_QUEUE_HAS_TICKETS", tickets: 2 },
    });
    expect(await call(ctx.app, "DELETE", `/api/queue/${q1.id}?moveTo=999`, { token: admin.token })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_QUEUE_FOUND" },
    });
    expect(await call(ctx.app, "DELETE", `/api/queue/${q1.id}?moveTo=${q1.id}`, { token: admin.token })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_QUEUE_FOUND" },
    });
    expect(await queueOf(open.id)).toBe(q1.id);
    expect(await first(ctx.db.select().from(queues).where(eq(queues.id, q1.id)))).toBeDefined();

    ctx.hub.clear();
    expect(await call(ctx.app, "DELETE", `/api/queue/${q1.id}?moveTo=${q3.id}`, { token: admin.token })).toMatchObject({
      status: 200,
      json: { message: "Queue deleted" },
    });
    expect([await queueOf(open.id), await queueOf(closed.id)]).toEqual([q3.id, q3.id]);
    // The other queue's agent still cannot read them, and the live lists move the active one.
    expect((await call(ctx.app, "GET", `/api/tickets/${closed.id}`, { token: agent2.token })).status).toBe(403);
    expect(ctx.hub.to(`queue:${q3.id}:status:open`, "ticket").map((e) => e.payload.ticket.id)).toEqual([open.id]);
    expect(ctx.hub.to(`queue:${q1.id}:status:open`, "ticket")[0]!.payload).toEqual({
      action: "delete",
      ticketId: open.id,
    });

    // A queue without tickets goes without a target.
    expect((await call(ctx.app, "DELETE", `/api/queue/${q2.id}`, { token: admin.token })).status).toBe(200);
  });
});

describe("connection secrets", () => {
  test("Also: agents never receive the Wavoip call token or a pending pairing QR; the call URL is asked per ticket", async () => {
    const { ctx, q1, admin, agent1, agent2 } = await twoQueues();
    const pairing = await createSandboxConnection(ctx, { name: "Pairing", scan: false });
    await ctx.db.update(connections).set({ wavoip: "secret-call-token" }).where(eq(connections.id, pairing.id));
    const qr = (await first(
      ctx.db.select({ qrcode: connections.qrcode }).from(connections).where(eq(connections.id, pairing.id)),
    ))!.qrcode;
    expect(qr).not.toBe("");
    const ticket = await seedTicket(ctx, { queueId: q1.id, whatsappId: pairing.id });
    await call(ctx.app, "PUT", `/api/whatsapp/${pairing.id}`, { token: admin.token, body: { greetingMessage: "Hi" } });

    const agentViews = [
      await call(ctx.app, "GET", `/api/tickets/${ticket.id}`, { token: agent1.token }),
      await call(ctx.app, "GET", "/api/tickets?status=open", { token: agent1.token }),
      await call(ctx.app, "GET", `/api/messages/${ticket.id}`, { token: agent1.token }),
      await call(ctx.app, "GET", "/api/whatsapp", { token: agent1.token }),
      await call(ctx.app, "GET", `/api/whatsapp/${pairing.id}`, { token: agent1.token }),
    ];
    for (const view of agentViews) {
      expect(view.status).toBe(200);
      expect(JSON.stringify(view.json)).not.toContain("secret-call-token");
      expect(JSON.stringify(view.json)).not.toContain(qr);
    }
    expect(agentViews[0]!.json.whatsapp).toEqual({ id: pairing.id, name: "Pairing", hasCall: true });
    for (const event of ctx.hub.sent.filter((e) => e.room !== "admins")) {
      expect(JSON.stringify(event.payload)).not.toContain("secret-call-token");
      expect(JSON.stringify(event.payload)).not.toContain(qr);
    }
    // Admins still see the QR to scan it.
    expect(ctx.hub.to("admins", "whatsappSession").some((e) => e.payload.session.qrcode === qr)).toBe(true);
    expect((await call(ctx.app, "GET", `/api/whatsapp/${pairing.id}`, { token: admin.token })).json.qrcode).toBe(qr);

    // The call button asks for the dialer URL of one ticket, which needs that ticket to be visible.
    const number = await numberOf(ctx, ticket.contactId);
    expect(await call(ctx.app, "GET", `/api/tickets/${ticket.id}/call`, { token: agent1.token })).toMatchObject({
      status: 200,
      json: { url: `https://app.wavoip.com/call?token=secret-call-token&phone=${number}` },
    });
    expect(await call(ctx.app, "GET", `/api/tickets/${ticket.id}/call`, { token: agent2.token })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    const silent = await seedTicket(ctx, { queueId: q1.id, whatsappId: null });
    expect(await call(ctx.app, "GET", `/api/tickets/${silent.id}/call`, { token: agent1.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NOT_FOUND" },
    });
  });
});

describe("shared lists", () => {
  test("Shared lists: agents edit or delete only the tags and schedules they created and no quick answers; admins edit all", async () => {
    const { ctx, admin, agent1, agent2 } = await twoQueues();
    const as = (who: { token: string }, method: string, path: string, body?: unknown) =>
      call(ctx.app, method, path, { token: who.token, body });

    const mine = (await as(agent1, "POST", "/api/tags", { name: "Mine" })).json;
    const theirs = (await as(agent2, "POST", "/api/tags", { name: "Theirs" })).json;
    expect((await as(agent1, "PUT", `/api/tags/${theirs.id}`, { name: "Hijacked" })).status).toBe(403);
    expect((await as(agent1, "DELETE", `/api/tags/${theirs.id}`)).status).toBe(403);
    expect((await as(agent1, "PUT", `/api/tags/${mine.id}`, { name: "Mine too" })).status).toBe(200);
    expect((await as(agent1, "DELETE", `/api/tags/${mine.id}`)).status).toBe(200);
    expect((await as(admin, "PUT", `/api/tags/${theirs.id}`, { name: "Renamed" })).status).toBe(200);
    expect((await as(admin, "DELETE", `/api/tags/${theirs.id}`)).status).toBe(200);

    const contactId = (await seedTicket(ctx)).contactId;
    const sendAt = new Date(ctx.clock.now() + 3_600_000).toISOString();
    const schedule = (await as(agent2, "POST", "/api/schedules", { body: "Call back tomorrow", contactId, sendAt }))
      .json;
    expect((await as(agent1, "PUT", `/api/schedules/${schedule.id}`, { body: "Changed by someone else" })).status).toBe(
      403,
    );
    expect((await as(agent1, "DELETE", `/api/schedules/${schedule.id}`)).status).toBe(403);
    expect((await as(admin, "PUT", `/api/schedules/${schedule.id}`, { body: "Changed by an admin" })).status).toBe(200);
    expect((await as(agent2, "DELETE", `/api/schedules/${schedule.id}`)).status).toBe(200);

    const answer = (
      await as(agent1, "POST", "/api/quickAnswers", { shortcut: "hello", message: "Hello, how can I help?" })
    ).json;
    expect(
      (await as(agent1, "PUT", `/api/quickAnswers/${answer.id}`, { message: "Send me your password" })).status,
    ).toBe(403);
    expect((await as(agent1, "DELETE", `/api/quickAnswers/${answer.id}`)).status).toBe(403);
    expect(
      (await as(admin, "PUT", `/api/quickAnswers/${answer.id}`, { message: "Hello there, how can I help?" })).status,
    ).toBe(200);
    expect((await as(admin, "DELETE", `/api/quickAnswers/${answer.id}`)).status).toBe(200);
  });
});

describe("colours", () => {
  test("L4: tag and queue colours are only #rgb or #rrggbb, on create and update", async () => {
    const { ctx, q1, admin } = await twoQueues();
    const as = (method: string, path: string, body: unknown) =>
      call(ctx.app, method, path, { token: admin.token, body });
    const tag = (await as("POST", "/api/tags", { name: "Plain", color: "#A1b2C3" })).json;
    expect(tag.color).toBe("#A1b2C3");
    expect((await as("POST", "/api/tags", { name: "Blank", color: "" })).json.color).toBe("#eee");
    for (const color of [
      "url(http://tracker.example/x.png)",
      "red",
      "#abcd",
      "#12345g",
      "#fff;background:url(x)",
      " #fff",
    ]) {
      expect(await as("POST", "/api/tags", { name: "Tracker", color })).toMatchObject({
        status: 400,
        json: { field: "color" },
      });
      expect(await as("PUT", `/api/tags/${tag.id}`, { color })).toMatchObject({
        status: 400,
        json: { field: "color" },
      });
      expect(await as("POST", "/api/queue", { name: "Tracker", color })).toMatchObject({
        status: 400,
        json: { field: "color" },
      });
      expect(await as("PUT", `/api/queue/${q1.id}`, { color })).toMatchObject({
        status: 400,
        json: { field: "color" },
      });
    }
    expect(await as("PUT", `/api/queue/${q1.id}`, { color: "red" })).toMatchObject({
      json: { error: "VALIDATION", rule: "color", message: "Invalid colour" },
    });
    expect(await as("PUT", `/api/queue/${q1.id}`, { color: "#0a0" })).toMatchObject({
      status: 200,
      json: { color: "#0a0" },
    });
  });
});

describe("chatbot trees", () => {
  test("L6: a chatbot tree deeper than 10 levels is refused with 400, in one body or option by option", async () => {
    const { ctx, admin } = await twoQueues();
    const as = (method: string, path: string, body?: unknown) =>
      call(ctx.app, method, path, { token: admin.token, body });
    const chain = (levels: number) => {
      let node: Record<string, unknown> = { name: "Level leaf" };
      for (let i = 1; i < levels; i++) node = { name: `Level ${levels - i}`, options: [node] };
      return node;
    };

    // 3000 levels never reach the tree rule: the body's nesting limit refuses them first.
    expect(await as("POST", "/api/queue", { name: "Deep", color: "#444", chatbots: [chain(3000)] })).toMatchObject({
      status: 400,
      json: { error: "ERR_INVALID_BODY" },
    });
    const eleven = chain(11);
    expect(await as("POST", "/api/queue", { name: "Deep", color: "#444", chatbots: [eleven] })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "depth", message: "Too deep", field: "options" },
    });
    expect(await as("POST", "/api/chatbot", eleven)).toMatchObject({ status: 400, json: { field: "options" } });

    const queue = await as("POST", "/api/queue", { name: "Ten levels", color: "#555", chatbots: [chain(10)] });
    expect(queue.status).toBe(200);
    let tenth = queue.json.chatbots[0];
    while (tenth.options.length) tenth = tenth.options[0];
    // Growing the tree one option at a time meets the same limit.
    expect(await as("POST", "/api/chatbot", { name: "Eleventh", parentId: tenth.id })).toMatchObject({
      status: 400,
      json: { field: "options" },
    });
    expect(await as("PUT", `/api/chatbot/${tenth.id}`, { options: [{ name: "Eleventh" }] })).toMatchObject({
      status: 400,
      json: { field: "options" },
    });
    expect((await as("PUT", `/api/chatbot/${tenth.id}`, { name: "Tenth level" })).status).toBe(200);
    expect((await as("DELETE", `/api/queue/${queue.json.id}`)).status).toBe(200);
  });
});
