// @engine each
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { connections, massMessages, messages, schedules } from "../../src/db/tables";
import { getSetting } from "../../src/modules/settings/service";
import { call } from "../helpers";
import {
  CUSTOMER,
  cleanUpCloudApps,
  customerTicket,
  deliver,
  messagesSent,
  ORDER_UPDATE_SENT,
  setup,
} from "./cloud-app";

cleanUpCloudApps();

const ORDER_UPDATE = { name: "order_update", language: "pt_BR", parameters: ["Carla", "#42"] };

/** A cloud connection whose customer wrote once, `hoursAgo` hours ago. */
async function customerWhoWrote(hoursAgo: number) {
  const s = await setup();
  await s.ctx.db.update(connections).set({ isDefault: true });
  await deliver(s.ctx, s.graph, s.id, { type: "text", text: { body: "Hi" } });
  s.ctx.clock.advance(hoursAgo * 3600 * 1000);
  return { ...s, ticket: await customerTicket(s.ctx) };
}

/** A schedule for the customer's chat, due in a minute, saying "Your order left" unless `fields` say otherwise. */
function scheduleFor(s: Awaited<ReturnType<typeof customerWhoWrote>>, fields: object) {
  return call(s.ctx.app, "POST", "/api/schedules", {
    token: s.admin.token,
    body: {
      body: "Your order left",
      contactId: s.ticket.contactId,
      ticketId: s.ticket.id,
      sendAt: new Date(s.ctx.clock.now() + 60_000).toISOString(),
      ...fields,
    },
  });
}

async function runJobs(ctx: Awaited<ReturnType<typeof setup>>["ctx"], times: number, stepMs: number) {
  for (let i = 0; i < times; i++) {
    ctx.clock.advance(stepMs);
    await ctx.deps.jobs.tick();
  }
}

describe("schedules on a cloud connection", () => {
  test("past the 24 h window a schedule sends its template; one without a template fails with the window's code", async () => {
    const s = await customerWhoWrote(30);
    const { ctx, graph, id } = s;
    const schedule = (fields: object) => scheduleFor(s, fields);
    const withTemplate = await schedule({ template: ORDER_UPDATE });
    expect(withTemplate.status).toBe(200);
    expect(withTemplate.json.template).toEqual(ORDER_UPDATE);
    const without = await schedule({});
    await runJobs(ctx, 2, 60_000);
    await ctx.deps.outbox.idle(id);

    expect(messagesSent(graph).map((s) => s.body)).toMatchObject([{ ...ORDER_UPDATE_SENT, to: CUSTOMER }]);
    const sent = await first(ctx.db.select().from(schedules).where(eq(schedules.id, withTemplate.json.id)));
    expect(sent?.status).toBe("ENVIADA");
    const message = await first(ctx.db.select().from(messages).where(eq(messages.id, sent!.messageId!)));
    expect(message?.body).toBe("Olá Carla, seu pedido #42 saiu para entrega.");
    const failed = await first(ctx.db.select().from(schedules).where(eq(schedules.id, without.json.id)));
    expect(failed?.lastError).toBe("ERR_OUTSIDE_24H_WINDOW");
  });

  test("a schedule's template must match an approved template of its connection", async () => {
    const res = await scheduleFor(await customerWhoWrote(30), { template: { ...ORDER_UPDATE, header: "Hello" } });
    expect([res.status, res.json.field, res.json.rule]).toEqual([400, "template.header", "invalid"]);
  });

  test("inside the window the schedule's text goes, not its template; the template can be changed or removed", async () => {
    const s = await customerWhoWrote(1);
    const { ctx, graph, admin, id } = s;
    const created = await scheduleFor(s, { body: "See you soon", template: ORDER_UPDATE });
    const removed = await call(ctx.app, "PUT", `/api/schedules/${created.json.id}`, {
      token: admin.token,
      body: { template: null },
    });
    expect(removed.json.template).toBeNull();
    await call(ctx.app, "PUT", `/api/schedules/${created.json.id}`, {
      token: admin.token,
      body: { template: ORDER_UPDATE },
    });
    await runJobs(ctx, 1, 60_000);
    await ctx.deps.outbox.idle(id);
    expect(messagesSent(graph).map((s) => s.body)).toMatchObject([
      { type: "text", text: { body: "See you soon" }, to: CUSTOMER },
    ]);
  });
});

test("a schedule's template survives a restart and goes out once", async () => {
  const s = await customerWhoWrote(30);
  const { ticket, graph, restarted } = s;
  const created = await scheduleFor(s, { template: ORDER_UPDATE });
  const next = await restarted();
  await runJobs(next, 3, 60_000);
  await next.deps.outbox.idle(ticket.whatsappId!);
  expect(messagesSent(graph).map((s) => s.body)).toMatchObject([{ ...ORDER_UPDATE_SENT, to: CUSTOMER }]);
  expect((await first(next.db.select().from(schedules).where(eq(schedules.id, created.json.id))))?.status).toBe(
    "ENVIADA",
  );
});

describe("campaigns on a cloud connection", () => {
  test("recipients outside the window get the item's template, or are skipped without one; those inside get the text", async () => {
    const { ctx, graph, admin, id } = await customerWhoWrote(0);
    const post = (body: unknown, path: string) => call(ctx.app, "POST", path, { token: admin.token, body });
    // The photo filter does not apply: the Cloud API shows no profile photos.
    await post({ whatsappId: id, limit: 10, minutes: 0, seconds: 1, photo: true }, "/api/settingsMessage");
    const [stranger, other] = ["5511977776666", "5511966665555"];
    const items = [
      { message: "Offer", phone: CUSTOMER, whatsappId: id, template: ORDER_UPDATE },
      { message: "Offer", phone: stranger, whatsappId: id, template: ORDER_UPDATE },
      { message: "Offer", phone: other, whatsappId: id },
    ];
    expect((await post(items, "/api/bulkMessage")).status).toBe(200);
    await runJobs(ctx, 6, 1000);
    await ctx.deps.outbox.idle(id);

    const records = await ctx.db.select().from(massMessages).orderBy(asc(massMessages.id));
    expect(records.map((r) => [r.phone, r.status])).toEqual([
      [CUSTOMER, "sent"],
      [stranger, "sent"],
      [other, "outside 24h window"],
    ]);
    expect(messagesSent(graph).map((s) => s.body)).toMatchObject([
      { type: "text", text: { body: "Offer" }, to: CUSTOMER },
      { ...ORDER_UPDATE_SENT, to: stranger },
    ]);
  });

  test("a campaign item's template must be shaped like the chat's and match an approved template of a running connection", async () => {
    const { ctx, admin, id } = await customerWhoWrote(0);
    const post = (template: object) =>
      call(ctx.app, "POST", "/api/bulkMessage", {
        token: admin.token,
        body: [
          { message: "Offer", phone: CUSTOMER, whatsappId: id, template: ORDER_UPDATE },
          { message: "Offer", phone: "5511977776666", whatsappId: id, template },
        ],
      });
    expect((await post({ name: "order_update" })).status).toBe(400);
    const unknown = await post({ ...ORDER_UPDATE, name: "nope" });
    expect([unknown.status, unknown.json.field, unknown.json.rule]).toEqual([400, "1.template.name", "invalid"]);
    const short = await post({ ...ORDER_UPDATE, parameters: ["Carla"] });
    expect([short.status, short.json.field]).toEqual([400, "1.template.parameters"]);
    expect(await ctx.db.select().from(massMessages)).toEqual([]);
    // A connection that is not running cannot tell: its templates are checked when sent.
    await ctx.channels.stop(id);
    expect((await post({ ...ORDER_UPDATE, name: "nope" })).status).toBe(200);
  });
});

describe("the external API on a cloud connection", () => {
  test("past the window it sends the payload's template; without one it is refused with the window's code", async () => {
    const { ctx, graph, id } = await customerWhoWrote(25);
    const token = await getSetting(ctx.db, "userApiToken");
    const send = (body: object) =>
      call(ctx.app, "POST", "/api/messages/send", { token, body: { number: CUSTOMER, body: "Hello again", ...body } });
    const refused = await send({});
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe("ERR_OUTSIDE_24H_WINDOW");
    const res = await send({ template: ORDER_UPDATE });
    expect(res.status).toBe(200);
    await ctx.deps.outbox.idle(id);
    expect(messagesSent(graph).map((s) => s.body)).toMatchObject([{ ...ORDER_UPDATE_SENT, to: CUSTOMER }]);
    expect((await send({ template: { name: "order_update", language: "pt_BR" } })).json.error).toBe("ERR_INVALID_BODY");
  });
});
