// @engine each
import { one } from "../src/db/client";
import { describe, expect, spyOn, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, type ConnectionRow, tickets } from "../src/db/tables";
import type { DomainEvent } from "../src/events/catalogue";
import { COMPOSING_EVERY_MS } from "../src/shared/contracts/presence";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const CUSTOMER = "5511988887777";

/** A customer who wrote in, and their ticket, open with `userId` (or waiting without). */
async function customerTicket(ctx: TestContext, conn: ConnectionRow, userId: number | null, from = CUSTOMER) {
  await ctx.sandbox.inbound(conn.id, { from, name: "Lia", body: "Oi" });
  const contact = await one(ctx.db.select().from(contacts).where(eq(contacts.number, from)));
  const status = userId == null ? "pending" : "open";
  const ticket = await one(
    ctx.db.update(tickets).set({ status, userId }).where(eq(tickets.contactId, contact.id)).returning(),
  );
  return { contact, ticket };
}

async function setup() {
  const ctx = await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const conn = await createSandboxConnection(ctx);
  return { ctx, admin, agent, conn };
}

describe("the customer's presence", () => {
  test("a customer typing, recording, online in the sandbox shows in the open chat of their ticket, and nowhere else", async () => {
    const { ctx, admin, agent, conn } = await setup();
    const { contact, ticket } = await customerTicket(ctx, conn, agent.user.id);
    for (const state of ["composing", "recording", "available"]) {
      const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/presence`, {
        token: admin.token,
        body: { from: CUSTOMER, state },
      });
      expect(res.status).toBe(200);
    }
    const frames = ctx.hub.named("presence");
    expect(frames.map((f) => f.room)).toEqual([`ticket:${ticket.id}`, `ticket:${ticket.id}`, `ticket:${ticket.id}`]);
    expect(frames.map((f) => f.payload)).toEqual(
      ["composing", "recording", "available"].map((state) => ({ ticketId: ticket.id, contactId: contact.id, state })),
    );
  });

  test("a presence of someone with no active ticket on that connection is dropped", async () => {
    const { ctx, admin, conn } = await setup();
    await customerTicket(ctx, conn, null);
    await ctx.db.update(tickets).set({ status: "closed" });
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/presence`, {
      token: admin.token,
      body: { from: CUSTOMER, state: "composing" },
    });
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/presence`, {
      token: admin.token,
      body: { from: "5511900001111", state: "composing" },
    });
    expect(ctx.hub.named("presence")).toEqual([]);
  });

  test("the simulated phone's presence is validated: an unknown state or a sender that is no number is 400 VALIDATION", async () => {
    const { ctx, admin, conn } = await setup();
    const bad = [{ from: CUSTOMER, state: "typing" }, { from: "ana", state: "composing" }, { from: CUSTOMER }];
    for (const body of bad) {
      const res = await call(ctx.app, "POST", `/api/sandbox/${conn.id}/presence`, { token: admin.token, body });
      expect({ body, status: res.status, error: res.json.error }).toEqual({ body, status: 400, error: "VALIDATION" });
    }
    const missingTo = await call(ctx.app, "GET", `/api/sandbox/${conn.id}/presence`, { token: admin.token });
    expect(missingTo.status).toBe(400);
  });
});

describe("the agent's presence", () => {
  test("the agent typing shows on the customer's phone as composing, and stopping as paused", async () => {
    const { ctx, admin, agent, conn } = await setup();
    const { ticket } = await customerTicket(ctx, conn, agent.user.id);
    const shown = async () =>
      (await call(ctx.app, "GET", `/api/sandbox/${conn.id}/presence?to=${CUSTOMER}`, { token: admin.token })).json;
    expect(await shown()).toEqual({ to: CUSTOMER, state: null });
    const typing = await call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, {
      token: agent.token,
      body: { state: "composing" },
    });
    expect(typing.status).toBe(200);
    expect(await shown()).toEqual({ to: CUSTOMER, state: "composing" });
    await call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, {
      token: agent.token,
      body: { state: "paused" },
    });
    expect(await shown()).toEqual({ to: CUSTOMER, state: "paused" });
  });

  test("composing reaches the network at most once every few seconds per chat; paused lets the next one through", async () => {
    const { ctx, agent, conn } = await setup();
    const { ticket } = await customerTicket(ctx, conn, agent.user.id);
    const sent = spyOn(ctx.channels, "sendPresence");
    const show = (state: string) =>
      call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, { token: agent.token, body: { state } });
    await show("composing");
    await show("composing");
    ctx.clock.advance(COMPOSING_EVERY_MS - 1);
    await show("composing");
    expect(sent.mock.calls.map((c) => c[3])).toEqual(["composing"]);
    ctx.clock.advance(1);
    await show("composing");
    await show("paused");
    await show("composing");
    expect(sent.mock.calls.map((c) => c[3])).toEqual(["composing", "composing", "paused", "composing"]);
  });

  test("opening the chat asks the network for the customer's presence, for anyone who may see the ticket", async () => {
    const { ctx, agent, conn } = await setup();
    const { ticket } = await customerTicket(ctx, conn, null);
    const subscribed = spyOn(ctx.channels, "subscribePresence");
    const res = await call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, {
      token: agent.token,
      body: { state: "viewing" },
    });
    expect(res.status).toBe(200);
    expect(subscribed.mock.calls).toEqual([[conn.id, CUSTOMER, false]]);
  });

  test("only who may send on the ticket shows typing: another agent 403, a ticket not open ERR_TICKET_NOT_OPEN, a bad state 400", async () => {
    const { ctx, agent, conn } = await setup();
    const other = await loginAs(ctx);
    const { ticket } = await customerTicket(ctx, conn, agent.user.id);
    const show = (token: string, state: string, id = ticket.id) =>
      call(ctx.app, "POST", `/api/tickets/${id}/presence`, { token, body: { state } });
    expect((await show(other.token, "composing")).json.error).toBe("ERR_NO_PERMISSION");
    expect((await show(agent.token, "typing")).json.error).toBe("VALIDATION");
    expect((await show(agent.token, "composing", 9999)).status).toBe(404);
    await ctx.db.update(tickets).set({ status: "closed" });
    const waiting = await show(agent.token, "composing");
    expect({ status: waiting.status, error: waiting.json.error }).toEqual({
      status: 400,
      error: "ERR_TICKET_NOT_OPEN",
    });
    expect(
      (await call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, { body: { state: "paused" } })).status,
    ).toBe(401);
  });

  test("an agent's presence for a connection another node runs goes over the event bus, not to a network here", async () => {
    const { ctx, agent, conn } = await setup();
    const { ticket } = await customerTicket(ctx, conn, agent.user.id);
    await ctx.channels.stop(conn.id);
    const heard: DomainEvent[] = [];
    ctx.deps.events.subscribe((e) => void (e.name === "chat.ownPresence" && heard.push(e)));
    await call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, {
      token: agent.token,
      body: { state: "composing" },
    });
    expect(heard.map((e) => e.payload)).toEqual([
      { connectionId: conn.id, chatId: CUSTOMER, isGroup: false, state: "composing" },
    ]);
  });
});
