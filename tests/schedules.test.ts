// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, schedules } from "../src/db/tables";
import { call, loginAs, makeTestApp } from "./helpers";

async function setup() {
  const ctx = await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const other = await loginAs(ctx);
  const contact = await one(
    ctx.db.insert(contacts).values({ name: "Joana Silva", number: "5511988887777" }).returning(),
  );
  const later = new Date(ctx.clock.now() + 3600_000).toISOString();
  return { ctx, admin, agent, other, contact, later };
}

describe("schedules", () => {
  test("create: PENDENTE, owned by the caller, with contact and user; everyone is told", async () => {
    const { ctx, agent, contact, later } = await setup();
    const res = await call(ctx.app, "POST", "/api/schedules", {
      token: agent.token,
      body: { body: "Hello there", contactId: contact.id, sendAt: later, userId: 999 },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      body: "Hello there",
      status: "PENDENTE",
      userId: agent.user.id,
      contact: { id: contact.id, name: "Joana Silva" },
      user: { id: agent.user.id },
    });
    expect(new Date(res.json.sendAt).toISOString()).toBe(later);
    expect(ctx.hub.to("all", "schedule")[0]!.payload).toMatchObject({
      action: "create",
      schedule: { id: res.json.id },
    });
  });

  test("create validation: body ≥ 5 'Mensagem muito curta', sendAt 'Obrigatório' and in the future, contact must exist", async () => {
    const { ctx, agent, contact, later } = await setup();
    const post = (body: unknown) => call(ctx.app, "POST", "/api/schedules", { token: agent.token, body });
    expect(await post({ body: "Hey", contactId: contact.id, sendAt: later })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Mensagem muito curta", field: "body" },
    });
    expect(await post({ contactId: contact.id, sendAt: later })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Obrigatório", field: "body" },
    });
    expect(await post({ body: "Hello there", contactId: contact.id })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Obrigatório", field: "sendAt" },
    });
    expect(await post({ body: "Hello there", contactId: contact.id, sendAt: "" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Obrigatório", field: "sendAt" },
    });
    expect(await post({ body: "Hello there", contactId: contact.id, sendAt: "not a date" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "sendAt", rule: "date", message: "Invalid date" },
    });
    const past = new Date(ctx.clock.now() - 60_000).toISOString();
    expect(await post({ body: "Hello there", contactId: contact.id, sendAt: past })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "sendAt", rule: "future", message: "A data deve ser no futuro" },
    });
    expect(await post({ body: "Hello there", contactId: 999, sendAt: later })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_CONTACT_FOUND" },
    });
    expect(await post({ body: "Hello there", sendAt: later })).toMatchObject({
      status: 400,
      json: { field: "contactId" },
    });
    expect(await post({ body: "Hello there", contactId: "abc", sendAt: later })).toMatchObject({ status: 400 });
  });

  test("edit by the creator or an admin only; sent ones refused; an ERRO one goes back to PENDENTE", async () => {
    const { ctx, admin, agent, other, contact, later } = await setup();
    const s = (
      await call(ctx.app, "POST", "/api/schedules", {
        token: agent.token,
        body: { body: "Hello there", contactId: contact.id, sendAt: later },
      })
    ).json;
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: other.token, body: { body: "Changed body" } }),
    ).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: agent.token, body: { body: "Mine to change" } }),
    ).toMatchObject({ status: 200, json: { body: "Mine to change" } });
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: agent.token, body: { body: "Hey" } }),
    ).toMatchObject({ status: 400, json: { error: "VALIDATION", rule: "min", message: "Mensagem muito curta" } });
    await ctx.db.update(schedules).set({ status: "ERRO" }).where(eq(schedules.id, s.id));
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: admin.token, body: { sendAt: later } }),
    ).toMatchObject({ status: 200, json: { status: "PENDENTE" } });
    expect(ctx.hub.to("all", "schedule").at(-1)!.payload).toMatchObject({
      action: "update",
      schedule: { id: s.id, status: "PENDENTE" },
    });
    await ctx.db.update(schedules).set({ status: "ENVIADA", sentAt: new Date() }).where(eq(schedules.id, s.id));
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: admin.token, body: { body: "Too late now" } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_SCHEDULE_ALREADY_SENT" } });
    expect(
      await call(ctx.app, "PUT", "/api/schedules/999", { token: admin.token, body: { body: "Too late now" } }),
    ).toMatchObject({ status: 404, json: { error: "ERR_NO_SCHEDULE_FOUND" } });
    expect(
      await call(ctx.app, "PUT", `/api/schedules/${s.id}`, { token: admin.token, body: { contactId: 999 } }),
    ).toMatchObject({ status: 400 });
  });

  test("show and delete; unknown ids 404", async () => {
    const { ctx, agent, contact, later } = await setup();
    const s = (
      await call(ctx.app, "POST", "/api/schedules", {
        token: agent.token,
        body: { body: "Hello there", contactId: contact.id, sendAt: later },
      })
    ).json;
    expect(await call(ctx.app, "GET", `/api/schedules/${s.id}`, { token: agent.token })).toMatchObject({
      status: 200,
      json: { contact: { name: "Joana Silva" }, user: { id: agent.user.id } },
    });
    expect(await call(ctx.app, "DELETE", `/api/schedules/${s.id}`, { token: agent.token })).toMatchObject({
      status: 200,
      json: { message: "Schedule deleted" },
    });
    expect(ctx.hub.to("all", "schedule").at(-1)!.payload).toEqual({ action: "delete", scheduleId: s.id });
    expect(await call(ctx.app, "GET", `/api/schedules/${s.id}`, { token: agent.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_SCHEDULE_FOUND" },
    });
    expect(await call(ctx.app, "DELETE", `/api/schedules/${s.id}`, { token: agent.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_SCHEDULE_FOUND" },
    });
  });

  test("list: newest first, 20 a page, search body or contact name, contactId and userId filters", async () => {
    const { ctx, agent, admin, contact, later } = await setup();
    const bob = await one(ctx.db.insert(contacts).values({ name: "Bob Stone", number: "5511977776666" }).returning());
    for (let i = 0; i < 21; i++) {
      ctx.clock.advance(1);
      await call(ctx.app, "POST", "/api/schedules", {
        token: i < 20 ? agent.token : admin.token,
        body: { body: `Message number ${i}`, contactId: i === 0 ? bob.id : contact.id, sendAt: later },
      });
    }
    const first = await call(ctx.app, "GET", "/api/schedules", { token: agent.token });
    expect(first.json).toMatchObject({ count: 21, hasMore: true });
    expect(first.json.schedules).toHaveLength(20);
    expect((await call(ctx.app, "GET", "/api/schedules?pageNumber=2", { token: agent.token })).json).toMatchObject({
      count: 21,
      hasMore: false,
    });
    expect((await call(ctx.app, "GET", "/api/schedules?searchParam=%20BOB", { token: agent.token })).json.count).toBe(
      1,
    );
    expect(
      (await call(ctx.app, "GET", "/api/schedules?searchParam=number%2019", { token: agent.token })).json.count,
    ).toBe(1);
    expect((await call(ctx.app, "GET", `/api/schedules?contactId=${bob.id}`, { token: agent.token })).json.count).toBe(
      1,
    );
    expect(
      (await call(ctx.app, "GET", `/api/schedules?userId=${admin.user.id}`, { token: agent.token })).json.count,
    ).toBe(1);
    expect((await call(ctx.app, "GET", "/api/schedules?contactId=x", { token: agent.token })).status).toBe(400);
    expect((await call(ctx.app, "GET", "/api/schedules")).status).toBe(401);
  });

  test("a sendAt without a zone (the client's datetime-local) is wall-clock time in the configured time zone", async () => {
    const ctx = await makeTestApp({ timeZone: "America/Sao_Paulo" });
    const { token } = await loginAs(ctx);
    const contact = await one(ctx.db.insert(contacts).values({ name: "Joana", number: "5511988887777" }).returning());
    const res = await call(ctx.app, "POST", "/api/schedules", {
      token,
      body: { body: "Hello there", contactId: contact.id, sendAt: "2099-06-01T09:30" },
    });
    expect(res.status).toBe(200);
    expect(new Date(res.json.sendAt).toISOString()).toBe("2099-06-01T12:30:00.000Z");
  });
});
