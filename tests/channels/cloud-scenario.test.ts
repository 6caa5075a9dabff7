// @engine each
import { afterEach, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { chatbots, connections, ticketEvents } from "../../src/db/tables";
import { webhookEventsRecorded } from "../../src/modules/webhooks/observe";
import { call } from "../helpers";
import { cleanUpCloudApps, customerTicket, deliver, messagesSent, setup, withQueues } from "./cloud-app";

cleanUpCloudApps();

const servers: ReturnType<typeof Bun.serve>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

/** A local receiver of outbound webhooks: the events it was sent. */
function receiver() {
  const events: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      events.push((JSON.parse(await request.text()) as { event: string }).event);
      return new Response("ok");
    },
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}/hook`, events };
}

/** What the fake Graph API was last asked to send, as the customer would read it. */
const shown = (body: Record<string, unknown>) => {
  const b = body as { text?: { body: string }; interactive?: { body: { text: string } } };
  return (b.text?.body ?? b.interactive?.body.text ?? "").replace("\u200e", "");
};

test("a cloud conversation runs as on linked devices: greeting menu, chatbot, assignment, agent reply, search, webhooks, farewell and survey", async () => {
  const { ctx, graph, id, admin, agent, sales } = await withQueues("button", { webhookAllowPrivate: true });
  const hook = receiver();
  await call(ctx.app, "POST", "/api/webhooks", {
    token: admin.token,
    body: { url: hook.url, events: ["message.received", "message.sent", "ticket.status"] },
  });
  await ctx.db.insert(chatbots).values([
    {
      name: "Talk to Ana",
      greetingMessage: "Ana will answer you",
      queueId: sales.id,
      isAgent: true,
      userId: agent.user.id,
    },
    { name: "Prices", greetingMessage: "See our prices", queueId: sales.id },
  ]);
  await ctx.db
    .update(connections)
    .set({
      greetingMessage: "Welcome, {{name}}!",
      farewellMessage: "Bye {{name}}",
      csatEnabled: true,
      csatMessage: "Rate us 1 to 5",
    })
    .where(eq(connections.id, id));

  // The customer writes: the connection greeting comes with the queues as buttons.
  await deliver(ctx, graph, id, { type: "text", text: { body: "Hi, I want a quote" } });
  expect(shown(messagesSent(graph).at(-1)!.body)).toBe("Welcome, Carla!");
  ctx.clock.advance(5000);
  await deliver(ctx, graph, id, {
    type: "interactive",
    interactive: { type: "button_reply", button_reply: { id: "1", title: "Sales" } },
  });
  expect(shown(messagesSent(graph).at(-1)!.body)).toBe("Sales here\n\n*#* Voltar para o menu principal");
  ctx.clock.advance(5000);
  await deliver(ctx, graph, id, {
    type: "interactive",
    interactive: { type: "button_reply", button_reply: { id: "1", title: "Talk to Ana" } },
  });
  const assigned = await customerTicket(ctx);
  expect([assigned.status, assigned.userId, assigned.queueId]).toEqual(["open", agent.user.id, sales.id]);
  expect(shown(messagesSent(graph).at(-1)!.body)).toBe("Ana will answer you");

  // The agent answers; the conversation is found by its words.
  const reply = await call(ctx.app, "POST", `/api/messages/${assigned.id}`, {
    token: agent.token,
    body: { body: "Hello Carla, here is your quote" },
  });
  expect(reply.status).toBe(200);
  expect(messagesSent(graph).at(-1)!.body).toMatchObject({
    type: "text",
    text: { body: "Hello Carla, here is your quote" },
  });
  const found = await call(ctx.app, "GET", `/api/tickets?showAll=true&searchParam=${encodeURIComponent("quote")}`, {
    token: agent.token,
  });
  expect(found.json.tickets.map((t: { id: number }) => t.id)).toEqual([assigned.id]);

  // Resolved: farewell, then the survey; the customer's digit is the rating.
  ctx.clock.advance(1000);
  const closed = await call(ctx.app, "PUT", `/api/tickets/${assigned.id}`, {
    token: agent.token,
    body: { status: "closed" },
  });
  expect(closed.status).toBe(200);
  await ctx.deps.outbox.idle(id);
  expect(
    messagesSent(graph)
      .slice(-2)
      .map((s) => shown(s.body)),
  ).toEqual(["Bye Carla", "Rate us 1 to 5"]);
  ctx.clock.advance(1000);
  await deliver(ctx, graph, id, { type: "text", text: { body: "5" } });
  const rated = await first(
    ctx.db
      .select()
      .from(ticketEvents)
      .where(and(eq(ticketEvents.ticketId, assigned.id), eq(ticketEvents.kind, "rated"))),
  );
  expect(rated?.value).toBe(5);
  expect((await customerTicket(ctx)).status).toBe("closed");

  await webhookEventsRecorded(ctx.deps);
  await ctx.deps.jobs.tick();
  expect(new Set(hook.events)).toEqual(new Set(["message.received", "message.sent", "ticket.status"]));
});

test("what the Cloud API lacks fails clearly or quietly, never with a 500: delete for everyone, presence, profile photos", async () => {
  const { ctx, graph, id, admin } = await setup();
  await deliver(ctx, graph, id, { type: "text", text: { body: "Hi" } });
  const ticket = await customerTicket(ctx);
  await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
    token: admin.token,
    body: { status: "open", userId: admin.user.id },
  });
  const sent = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
    token: admin.token,
    body: { body: "Oops" },
  });
  const deleted = await call(ctx.app, "DELETE", `/api/messages/${sent.json.messages[0].id}`, { token: admin.token });
  expect([deleted.status, deleted.json.error]).toEqual([400, "ERR_DELETE_WAPP_MSG"]);
  for (const state of ["viewing", "composing", "paused"]) {
    const presence = await call(ctx.app, "POST", `/api/tickets/${ticket.id}/presence`, {
      token: admin.token,
      body: { state },
    });
    expect(presence.status).toBeLessThan(300);
  }
  const contact = await call(ctx.app, "GET", `/api/contacts/${ticket.contactId}`, { token: admin.token });
  expect([contact.status, contact.json.profilePicUrl]).toEqual([200, ""]);
  expect(messagesSent(graph).map((s) => s.body.type)).toEqual(["text"]);
});
