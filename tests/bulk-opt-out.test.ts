// @engine once
import { first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { contacts, massMessages, optOuts } from "../src/db/tables";
import { autoText } from "../src/i18n/server";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const phone = "5511988880001";
const other = "5511988880002";

async function setup() {
  const ctx = await makeTestApp();
  const admin = (await loginAs(ctx, { profile: "admin" })).token;
  const agent = (await loginAs(ctx)).token;
  const w = await createSandboxConnection(ctx);
  await call(ctx.app, "POST", "/api/settingsMessage", {
    token: admin,
    body: { whatsappId: w.id, limit: 10, minutes: 0, seconds: 1, optOut: "SAIR" },
  });
  return { ctx, admin, agent, w };
}

async function runFor(ctx: TestContext, seconds: number) {
  for (let i = 0; i < seconds; i++) {
    ctx.clock.advance(1000);
    await ctx.deps.jobs.tick();
  }
}

describe("bulk opt-out", () => {
  test("a contact who sends the opt-out keyword is listed, confirmed, and skipped by later campaigns", async () => {
    const { ctx, admin, w } = await setup();
    await ctx.sandbox.inbound(w.id, { from: phone, body: "  sair " });
    expect(await ctx.db.select().from(optOuts)).toMatchObject([{ whatsappId: w.id, number: phone }]);
    expect((await ctx.sandbox.network.outbox(w.id, phone)).map((m) => m.body.replace(/^\u200e/, ""))).toEqual([
      autoText("pt", "optOutConfirmation"),
    ]);

    await call(ctx.app, "POST", "/api/bulkMessage", {
      token: admin,
      body: [phone, other].map((p) => ({ message: "Promo", phone: p, whatsappId: w.id })),
    });
    await runFor(ctx, 3);
    expect((await ctx.db.select().from(massMessages).orderBy(asc(massMessages.id))).map((r) => r.status)).toEqual([
      "opted out",
      "sent",
    ]);
    expect(await ctx.sandbox.network.outbox(w.id, phone)).toHaveLength(1);
  });

  test("a text that only contains the keyword does not opt out", async () => {
    const { ctx, w } = await setup();
    await ctx.sandbox.inbound(w.id, { from: phone, body: "quero sair da lista" });
    expect(await ctx.db.select().from(optOuts)).toEqual([]);
  });

  test("a keyword changed after texts were compared with the old one applies from the next text", async () => {
    const { ctx, admin, w } = await setup();
    await ctx.sandbox.inbound(w.id, { from: phone, body: "PARAR" });
    await call(ctx.app, "POST", "/api/settingsMessage", { token: admin, body: { whatsappId: w.id, optOut: "PARAR" } });
    await ctx.sandbox.inbound(w.id, { from: phone, body: "SAIR" });
    expect(await ctx.db.select().from(optOuts)).toEqual([]);
    await ctx.sandbox.inbound(w.id, { from: phone, body: "parar" });
    expect(await ctx.db.select().from(optOuts)).toMatchObject([{ whatsappId: w.id, number: phone }]);
  });

  test("the contact's opt-outs are listed for everyone and cleared by admins only", async () => {
    const { ctx, admin, agent, w } = await setup();
    await ctx.sandbox.inbound(w.id, { from: phone, body: "SAIR" });
    const contact = (await first(ctx.db.select().from(contacts).where(eq(contacts.number, phone))))!;
    const listed = await call(ctx.app, "GET", `/api/contacts/${contact.id}/optOuts`, { token: agent });
    expect(listed).toMatchObject({ status: 200, json: [{ whatsappId: w.id, whatsappName: w.name }] });
    expect(
      (await call(ctx.app, "DELETE", `/api/contacts/${contact.id}/optOuts/${w.id}`, { token: agent })).status,
    ).toBe(403);
    expect(
      await call(ctx.app, "DELETE", `/api/contacts/${contact.id}/optOuts/${w.id}`, { token: admin }),
    ).toMatchObject({ status: 200 });
    expect(
      await call(ctx.app, "DELETE", `/api/contacts/${contact.id}/optOuts/${w.id}`, { token: admin }),
    ).toMatchObject({ status: 404, json: { error: "ERR_NO_OPT_OUT_FOUND" } });
    expect((await call(ctx.app, "GET", `/api/contacts/${contact.id}/optOuts`, { token: agent })).json).toEqual([]);
    expect((await call(ctx.app, "GET", `/api/contacts/999999/optOuts`, { token: agent })).status).toBe(404);
  });
});
