// @engine each
import { one, first } from "../src/db/client";
import { describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { contacts, jobs as jobRows, messages, optOuts, schedules, tickets } from "../src/db/tables";
import { AppError } from "../src/errors";
import { JobRunner } from "../src/jobs/runner";
import { schedulesSettled, startSchedules } from "../src/modules/schedules/jobs";
import { cancelUnsent } from "../src/modules/messages/outbox";
import { sendSchedule, settleWaitingSchedules } from "../src/modules/schedules/dispatch";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const HOUR = 3600_000;
let seq = 0;

/** A default sandbox connection, an agent, a contact, and the app's job runner ticked by hand. */
async function setup() {
  const ctx = await makeTestApp();
  const conn = await createSandboxConnection(ctx, { isDefault: true });
  const agent = await loginAs(ctx);
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: "Bia", number: `55218${String(++seq).padStart(8, "0")}` })
      .returning(),
  );
  /** Moves the clock and lets the send jobs due by then run. */
  const runAfter = async (ms: number) => {
    ctx.clock.advance(ms);
    await ctx.deps.jobs.tick();
    await ctx.deps.outbox.idle(conn.id);
    await schedulesSettled(ctx.deps);
  };
  return { ctx, conn, agent, contact, runAfter };
}

/** The schedule's send job as the runner holds it. */
const sendJobOf = async (ctx: TestContext, id: number) =>
  await first(
    ctx.db
      .select()
      .from(jobRows)
      .where(eq(jobRows.key, `schedule:${id}`)),
  );

async function createSchedule(ctx: TestContext, token: string, body: Record<string, unknown>) {
  const res = await call(ctx.app, "POST", "/api/schedules", {
    token,
    body: { sendAt: new Date(ctx.clock.now() + HOUR).toISOString(), ...body },
  });
  expect(res.status).toBe(200);
  return res.json as { id: number };
}

const rowOf = async (ctx: TestContext, id: number) =>
  (await first(ctx.db.select().from(schedules).where(eq(schedules.id, id))))!;
const statusesTold = (ctx: TestContext, id: number) =>
  ctx.hub
    .to("all", "schedule")
    .map((e) => e.payload.schedule)
    .filter((s) => s?.id === id)
    .map((s) => s.status);

describe("sending schedules", () => {
  test("a due schedule is sent once through its contact's ticket, shown live in the chat, and ENVIADA with sentAt", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Lembrete da consulta", contactId: contact.id });

    await runAfter(HOUR - 10_000);
    expect((await rowOf(ctx, s.id)).status).toBe("PENDENTE");
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);

    await runAfter(15_000);
    const row = await rowOf(ctx, s.id);
    expect(row).toMatchObject({ status: "ENVIADA", lastError: null });
    expect(row.sentAt!.getTime()).toBe(ctx.clock.now());
    expect((await ctx.sandbox.network.outbox(conn.id, contact.number!)).map((m) => m.body)).toEqual([
      "Lembrete da consulta",
    ]);
    const ticket = (await first(ctx.db.select().from(tickets).where(eq(tickets.contactId, contact.id))))!;
    expect(ticket).toMatchObject({ whatsappId: conn.id, unreadMessages: 0 });
    const stored = await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(stored.map((m) => [m.body, m.fromMe, m.sendState])).toEqual([["Lembrete da consulta", true, "sent"]]);
    expect(ctx.hub.to(`ticket:${ticket.id}`, "appMessage").map((e) => e.payload.action)).toContain("create");
    expect(statusesTold(ctx, s.id)).toEqual(["PENDENTE", "AGENDADA", "ENVIADA"]);

    await runAfter(HOUR);
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(1);
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: agent.token, body: { body: "Mudou de ideia" } }),
    ).toMatchObject({
      status: 400,
      json: { error: "ERR_SCHEDULE_ALREADY_SENT" },
    });
  });

  test("a schedule written from a chat goes out in that chat's ticket on its connection", async () => {
    const { ctx, agent, contact, runAfter } = await setup();
    const other = await createSandboxConnection(ctx);
    const ticket = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "open", userId: agent.user.id, whatsappId: other.id })
        .returning(),
    );
    const s = await createSchedule(ctx, agent.token, {
      body: "Volto a falar amanhã",
      contactId: contact.id,
      ticketId: ticket.id,
    });
    await runAfter(HOUR);
    await ctx.deps.outbox.idle(other.id);
    expect((await rowOf(ctx, s.id)).status).toBe("ENVIADA");
    expect((await ctx.sandbox.network.outbox(other.id, contact.number!)).map((m) => m.body)).toEqual([
      "Volto a falar amanhã",
    ]);
    expect(await ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toHaveLength(1);
    expect(
      await call(ctx.app, "POST", "/api/schedules", {
        token: agent.token,
        body: {
          body: "Outro contato",
          contactId: contact.id,
          ticketId: 999,
          sendAt: new Date(ctx.clock.now() + HOUR).toISOString(),
        },
      }),
    ).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_TICKET_FOUND" },
    });
  });

  test("with the connection down the schedule waits in the chat, goes out when it is back, and never twice", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Seu pedido chegou", contactId: contact.id });
    await ctx.channels.stop(conn.id);

    await runAfter(HOUR);
    expect(await rowOf(ctx, s.id)).toMatchObject({ status: "AGENDADA", sentAt: null });
    const waiting = (await first(
      ctx.db
        .select()
        .from(messages)
        .where(eq(messages.id, (await rowOf(ctx, s.id)).messageId!)),
    ))!;
    expect(waiting).toMatchObject({ body: "Seu pedido chegou", sendState: "queued" });
    await runAfter(HOUR);
    expect(await ctx.db.select().from(messages)).toHaveLength(1);
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);

    await ctx.channels.start(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    await runAfter(5_000);
    expect((await rowOf(ctx, s.id)).status).toBe("ENVIADA");
    await ctx.channels.restartAll();
    await runAfter(HOUR);
    expect((await ctx.sandbox.network.outbox(conn.id, contact.number!)).map((m) => m.wid)).toEqual([waiting.wid]);
    expect(statusesTold(ctx, s.id)).toEqual(["PENDENTE", "AGENDADA", "ENVIADA"]);
  });

  test("a failed message reported twice at once counts as one failed attempt", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Seu boleto", contactId: contact.id });
    await ctx.channels.stop(conn.id);
    await runAfter(HOUR);
    const messageId = (await rowOf(ctx, s.id)).messageId!;
    await ctx.db.update(messages).set({ sendState: "failed" }).where(eq(messages.id, messageId));

    await Promise.all([settleWaitingSchedules(ctx.deps, messageId), settleWaitingSchedules(ctx.deps, messageId)]);
    expect(await rowOf(ctx, s.id)).toMatchObject({ status: "AGENDADA", attempts: 1, messageId: null });
    expect(await sendJobOf(ctx, s.id)).toMatchObject({ status: "pending", runAt: ctx.clock.now() + 30_000 });
  });

  test("a schedule whose message waited is ENVIADA as soon as the message goes out, without waiting for the next pass", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Chegou sua encomenda", contactId: contact.id });
    await ctx.channels.stop(conn.id);
    await runAfter(HOUR);
    expect((await rowOf(ctx, s.id)).status).toBe("AGENDADA");

    await ctx.channels.start(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    await schedulesSettled(ctx.deps);
    expect((await rowOf(ctx, s.id)).status).toBe("ENVIADA");
  });

  test("a scheduled message cancelled in the chat while it waits is not written again: the schedule ends ERRO", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Melhor não enviar", contactId: contact.id });
    await ctx.channels.stop(conn.id);
    await runAfter(HOUR);
    expect(await cancelUnsent(ctx.deps, (await rowOf(ctx, s.id)).messageId!)).toBe(true);
    await runAfter(5_000);
    expect(await rowOf(ctx, s.id)).toMatchObject({
      status: "ERRO",
      lastError: "ERR_SCHEDULE_MESSAGE_CANCELLED",
      sentAt: null,
    });
    await ctx.channels.start(conn.id);
    await runAfter(HOUR);
    expect(await ctx.db.select().from(messages)).toHaveLength(0);
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);
    expect(statusesTold(ctx, s.id)).toEqual(["PENDENTE", "AGENDADA", "ERRO"]);
  });

  test("two runs of the same schedule at once send one message", async () => {
    const { ctx, conn, agent, contact } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Só uma vez, por favor", contactId: contact.id });
    ctx.clock.advance(HOUR);
    await Promise.all([sendSchedule(ctx.deps, s.id), sendSchedule(ctx.deps, s.id)]);
    await ctx.deps.outbox.idle(conn.id);
    await sendSchedule(ctx.deps, s.id);
    expect((await rowOf(ctx, s.id)).status).toBe("ENVIADA");
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.body)).toEqual(["Só uma vez, por favor"]);
    expect(await ctx.db.select().from(messages)).toHaveLength(1);
  });

  test("overdue schedules go out after a stop: a new runner on the same data sends them", async () => {
    const { ctx, conn, agent, contact } = await setup();
    const s = await createSchedule(ctx, agent.token, { body: "Atrasado mas vai", contactId: contact.id });
    ctx.clock.advance(3 * HOUR);
    const restarted = new JobRunner(ctx.deps);
    await startSchedules({ ...ctx.deps, jobs: restarted });
    await restarted.tick();
    await ctx.deps.outbox.idle(conn.id);
    expect((await rowOf(ctx, s.id)).status).toBe("ENVIADA");
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(1);
  });

  test("a failing send is tried 3 times with backoff, then ERRO with the reason; editing it makes it PENDENTE and it is sent", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const driverSend = ctx.sandbox.sendText.bind(ctx.sandbox);
    const broken = spyOn(ctx.sandbox, "sendText").mockImplementation(async () => {
      throw new AppError("ERR_SENDING_WAPP_MSG");
    });
    const s = await createSchedule(ctx, agent.token, { body: "Promoção de hoje", contactId: contact.id });

    await runAfter(HOUR);
    expect(await rowOf(ctx, s.id)).toMatchObject({
      status: "AGENDADA",
      attempts: 1,
      lastError: "ERR_SENDING_WAPP_MSG",
    });
    await runAfter(10_000);
    expect((await rowOf(ctx, s.id)).attempts).toBe(1);
    await runAfter(20_000);
    expect(await rowOf(ctx, s.id)).toMatchObject({ status: "AGENDADA", attempts: 2 });
    await runAfter(60_000);
    expect(await rowOf(ctx, s.id)).toMatchObject({
      status: "ERRO",
      attempts: 3,
      lastError: "ERR_SENDING_WAPP_MSG",
      sentAt: null,
    });
    expect(broken).toHaveBeenCalledTimes(3);
    expect(await ctx.db.select().from(messages)).toHaveLength(0);
    expect(statusesTold(ctx, s.id).at(-1)).toBe("ERRO");

    await runAfter(HOUR);
    expect(broken).toHaveBeenCalledTimes(3);

    broken.mockImplementation(driverSend);
    const edited = await call(ctx.app, "PUT", `/api/schedules/${s.id}`, {
      token: agent.token,
      body: { sendAt: new Date(ctx.clock.now() + 60_000).toISOString() },
    });
    expect(edited).toMatchObject({ status: 200, json: { status: "PENDENTE", attempts: 0, lastError: null } });
    await runAfter(60_000);
    expect((await rowOf(ctx, s.id)).status).toBe("ENVIADA");
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.body)).toEqual(["Promoção de hoje"]);
  });

  test("without any connection the schedule ends ERRO with ERR_NO_DEF_WAPP_FOUND", async () => {
    const ctx = await makeTestApp();
    const agent = await loginAs(ctx);
    const contact = await one(ctx.db.insert(contacts).values({ name: "Caio", number: "5521977776666" }).returning());
    const s = await createSchedule(ctx, agent.token, { body: "Sem conexão", contactId: contact.id });
    for (const ms of [HOUR, 30_000, 60_000]) {
      ctx.clock.advance(ms);
      await ctx.deps.jobs.tick();
    }
    expect(await rowOf(ctx, s.id)).toMatchObject({ status: "ERRO", attempts: 3, lastError: "ERR_NO_DEF_WAPP_FOUND" });
  });

  test("a schedule to a contact who opted out of the connection ends ERRO with the reason, and nothing is sent", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    await ctx.db
      .insert(optOuts)
      .values({ whatsappId: conn.id, number: contact.number!, createdAt: new Date(ctx.clock.now()) });
    const s = await createSchedule(ctx, agent.token, { body: "Promoção da semana", contactId: contact.id });
    await runAfter(HOUR + 5_000);
    expect(await rowOf(ctx, s.id)).toMatchObject({ status: "ERRO", lastError: "ERR_CONTACT_OPTED_OUT", sentAt: null });
    expect(await ctx.sandbox.network.outbox(conn.id, contact.number!)).toEqual([]);
    expect(await ctx.db.select().from(tickets).where(eq(tickets.contactId, contact.id))).toEqual([]);
    expect(statusesTold(ctx, s.id).at(-1)).toBe("ERRO");
  });

  test("editing a schedule moves its send to the new time; deleting one cancels its send", async () => {
    const { ctx, conn, agent, contact, runAfter } = await setup();
    const moved = await createSchedule(ctx, agent.token, { body: "Mudou para depois", contactId: contact.id });
    const dropped = await createSchedule(ctx, agent.token, { body: "Não vai mais", contactId: contact.id });
    const later = new Date(ctx.clock.now() + 2 * HOUR).toISOString();
    expect(
      (await call(ctx.app, "PUT", `/api/schedules/${moved.id}`, { token: agent.token, body: { sendAt: later } }))
        .status,
    ).toBe(200);
    expect((await call(ctx.app, "DELETE", `/api/schedules/${dropped.id}`, { token: agent.token })).status).toBe(200);
    expect(await sendJobOf(ctx, dropped.id)).toBeUndefined();

    await runAfter(HOUR);
    expect((await rowOf(ctx, moved.id)).status).toBe("PENDENTE");
    expect(await ctx.sandbox.network.outbox(conn.id)).toEqual([]);
    await runAfter(HOUR);
    expect((await rowOf(ctx, moved.id)).status).toBe("ENVIADA");
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.body)).toEqual(["Mudou para depois"]);
  });

  test("a schedule stored without a send job (an import) is sent at its time once the server has started", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-schedules-"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const first = await makeTestApp(paths);
    const conn = await createSandboxConnection(first, { isDefault: true });
    const contact = await one(first.db.insert(contacts).values({ name: "Duda", number: "5521966665555" }).returning());
    const imported = await one(
      first.db
        .insert(schedules)
        .values({ body: "Trazido de fora", contactId: contact.id, sendAt: new Date(first.clock.now() + HOUR) })
        .returning(),
    );
    const second = await makeTestApp(paths);
    second.clock.t = first.clock.t;
    await second.channels.start(conn.id);
    second.clock.advance(HOUR);
    await second.deps.jobs.tick();
    await second.deps.outbox.idle(conn.id);
    expect((await rowOf(second, imported.id)).status).toBe("ENVIADA");
    expect((await second.sandbox.network.outbox(conn.id)).map((m) => m.body)).toEqual(["Trazido de fora"]);
  });
});
