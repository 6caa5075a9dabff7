// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { connections, jobLanes, jobs, massMessages } from "../src/db/tables";
import { call, loginAs, makeTestApp } from "./helpers";
import { waitFor } from "./wait-for";

async function setup() {
  const ctx = await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const w = await one(ctx.db.insert(connections).values({ name: "Main", number: "5511900000000" }).returning());
  return { ctx, admin: admin.token, agent: agent.token, w };
}

describe("bulk messages", () => {
  test("POST stores pending records, drops exact duplicates, tells admins per record", async () => {
    const { ctx, admin, w } = await setup();
    const item = { message: "Hi {name}", phone: "5511999990001", whatsappId: w.id };
    const res = await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: [item, item, { ...item, phone: "5511999990002" }],
    });
    expect(res).toMatchObject({ status: 200, json: { created: 2, skippedDuplicates: 1 } });
    const rows = await ctx.db.select().from(massMessages);
    expect(rows.map((r) => r.status)).toEqual(["pending", "pending"]);
    const events = ctx.hub.to("admins", "massMessage");
    expect(events).toHaveLength(2);
    expect(events[0]!.payload).toMatchObject({
      action: "create",
      record: { phone: "5511999990001", status: "pending" },
    });
  });

  test("phones must be 8–15 digits and connections must exist; nothing is stored on a refusal", async () => {
    const { ctx, admin, w } = await setup();
    const post = (body: unknown) => call(ctx.app, "POST", "/api/bulkMessage", { token: admin, body });
    const ok = { message: "Hello", phone: "5511999990001", whatsappId: w.id };
    expect(await post([ok, { ...ok, phone: "55 11 9999" }])).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "phone", message: "Número inválido", field: "1.phone" },
    });
    expect(await post([{ ...ok, phone: "1234567" }])).toMatchObject({ status: 400 });
    expect(await post([{ ...ok, phone: "1234567890123456" }])).toMatchObject({ status: 400 });
    expect(await post([{ ...ok, whatsappId: 999 }])).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_WAPP_FOUND" },
    });
    expect(await post([])).toMatchObject({ status: 400 });
    expect(await post({ message: "x" })).toMatchObject({ status: 400 });
    expect(await post([{ phone: "5511999990001", whatsappId: w.id }])).toMatchObject({ status: 400 });
    expect(await ctx.db.select().from(massMessages)).toHaveLength(0);
  });

  test("report: newest first with the connection's name and number, 20 a page, search by phone", async () => {
    const { ctx, admin, w } = await setup();
    const items = Array.from({ length: 21 }, (_, i) => ({
      message: `Msg ${i}`,
      phone: `55119999900${String(i).padStart(2, "0")}`,
      whatsappId: w.id,
    }));
    await call(ctx.app, "POST", "/api/bulkMessage", { token: admin, body: items });
    const first = await call(ctx.app, "GET", "/api/bulkMessage/report", { token: admin });
    expect(first.json).toMatchObject({ count: 21, hasMore: true });
    expect(first.json.messages[0]).toMatchObject({ whatsapp: { name: "Main", number: "5511900000000" } });
    expect((await call(ctx.app, "GET", "/api/bulkMessage/report?pageNumber=2", { token: admin })).json).toMatchObject({
      count: 21,
      hasMore: false,
    });
    expect(
      (await call(ctx.app, "GET", "/api/bulkMessage/report?searchParam=%2099990020", { token: admin })).json.count,
    ).toBe(1);
  });

  test("delete one record; clean removes every record, pending ones too", async () => {
    const { ctx, admin, w } = await setup();
    await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: ["5511999990001", "5511999990002", "5511999990003"].map((phone) => ({
        message: "Hello",
        phone,
        whatsappId: w.id,
      })),
    });
    const [a, b] = await ctx.db.select().from(massMessages);
    expect(await call(ctx.app, "DELETE", `/api/bulkMessage/d/${a!.id}`, { token: admin })).toMatchObject({
      status: 200,
      json: { message: "Registro deletado" },
    });
    expect(ctx.hub.to("admins", "massMessage").at(-1)!.payload).toEqual({ action: "delete", id: a!.id });
    const sends = async () => (await ctx.db.select({ key: jobs.key }).from(jobs)).map((j) => j.key).sort();
    expect(await sends()).toEqual([`bulk:${b!.id}`, `bulk:${b!.id + 1}`]);
    expect(await call(ctx.app, "DELETE", `/api/bulkMessage/d/${a!.id}`, { token: admin })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_MASS_MESSAGE_FOUND" },
    });
    await ctx.db.update(massMessages).set({ status: "sent" }).where(eq(massMessages.id, b!.id));
    expect(await call(ctx.app, "DELETE", "/api/bulkMessage/clean", { token: admin })).toMatchObject({
      status: 200,
      json: { message: "Registro deletado", removed: 2 },
    });
    expect(await ctx.db.select().from(massMessages)).toEqual([]);
    expect(await sends()).toEqual([]);
    expect(
      ctx.hub
        .to("admins", "massMessage")
        .slice(-2)
        .map((f) => f.payload),
    ).toEqual([
      { action: "delete", id: b!.id },
      { action: "delete", id: b!.id + 1 },
    ]);
  });

  test("deleting a connection drops its records and their sends", async () => {
    const { ctx, admin, w } = await setup();
    await one(ctx.db.insert(connections).values({ name: "Other", number: "5511900000001" }).returning());
    await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: [{ message: "Hello", phone: "5511999990001", whatsappId: w.id }],
    });
    expect((await call(ctx.app, "DELETE", `/api/whatsapp/${w.id}`, { token: admin })).status).toBe(200);
    await waitFor(async () => (await ctx.db.select().from(jobs)).length === 0);
    expect(await ctx.db.select().from(jobLanes)).toEqual([]);
    expect(await ctx.db.select().from(massMessages)).toEqual([]);
  });

  test("agents are refused on every route", async () => {
    const { ctx, agent, w } = await setup();
    const no = { status: 403, json: { error: "ERR_NO_PERMISSION" } };
    expect(
      await call(ctx.app, "POST", "/api/bulkMessage", {
        token: agent,
        body: [{ message: "Hello", phone: "5511999990001", whatsappId: w.id }],
      }),
    ).toMatchObject(no);
    expect(await call(ctx.app, "GET", "/api/bulkMessage/report", { token: agent })).toMatchObject(no);
    expect(await call(ctx.app, "DELETE", "/api/bulkMessage/d/1", { token: agent })).toMatchObject(no);
    expect(await call(ctx.app, "DELETE", "/api/bulkMessage/clean", { token: agent })).toMatchObject(no);
  });
});
