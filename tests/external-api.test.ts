// @engine once
import { first as firstRow } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, messages, settings, tickets } from "../src/db/tables";
import { API_BURST } from "../src/modules/external-api/rate-limit";
import { getSetting } from "../src/modules/settings/service";
import { BASE, call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const apiToken = async (ctx: TestContext) => await getSetting(ctx.db, "userApiToken");
const send = async (ctx: TestContext, body: unknown, token?: string) =>
  call(ctx.app, "POST", "/api/messages/send", { token: token ?? (await apiToken(ctx)), body });

async function ready() {
  const ctx = await makeTestApp();
  const conn = await createSandboxConnection(ctx, { isDefault: true });
  return { ctx, conn };
}

describe("POST /api/messages/send", () => {
  test("with the API token, the text lands in the contact's ticket and on the phone; the number is normalised", async () => {
    const { ctx, conn } = await ready();
    const res = await send(ctx, { number: "+55 (11) 98888-7777", body: "Your order shipped" });
    expect(res.status).toBe(200);
    const { ticketId, messageId } = res.json;
    const contact = (await firstRow(ctx.db.select().from(contacts).where(eq(contacts.number, "5511988887777"))))!;
    const ticket = (await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, ticketId))))!;
    expect(ticket).toMatchObject({ contactId: contact.id, whatsappId: conn.id, status: "pending", unreadMessages: 0 });
    expect(await firstRow(ctx.db.select().from(messages).where(eq(messages.id, messageId)))).toMatchObject({
      ticketId,
      body: "Your order shipped",
      fromMe: true,
    });
    expect((await ctx.sandbox.network.outbox(conn.id, "5511988887777")).map((m) => m.body)).toEqual([
      "Your order shipped",
    ]);
  });

  test("a second send reuses the open ticket, and closeTicket closes it without a farewell", async () => {
    const { ctx, conn } = await ready();
    const first = await send(ctx, { number: "5511988887777", body: "one" });
    const second = await send(ctx, { number: "5511988887777", body: "two", closeTicket: true });
    expect(second.json.ticketId).toBe(first.json.ticketId);
    expect((await firstRow(ctx.db.select().from(tickets).where(eq(tickets.id, first.json.ticketId))))!.status).toBe(
      "closed",
    );
    expect((await ctx.sandbox.network.outbox(conn.id, "5511988887777")).map((m) => m.body)).toEqual(["one", "two"]);
  });

  test("multipart sends each file, the body as the first caption", async () => {
    const { ctx, conn } = await ready();
    const form = new FormData();
    form.append("number", "5511988887777");
    form.append("body", "the invoice");
    form.append("medias", new File([PNG], "a.png", { type: "image/png" }));
    form.append("medias", new File([PNG], "b.png", { type: "image/png" }));
    const res = await ctx.app.handle(
      new Request(`${BASE}/api/messages/send`, {
        method: "POST",
        headers: { authorization: `Bearer ${await apiToken(ctx)}` },
        body: form,
      }),
    );
    expect(res.status).toBe(200);
    const json = (await res.json()) as { messageIds: number[] };
    expect(json.messageIds).toHaveLength(2);
    expect(await ctx.sandbox.network.outbox(conn.id, "5511988887777")).toHaveLength(2);
  });

  test("no token is 401 ERR_SESSION_EXPIRED; another setting's value or a user's session is 401 ERR_INVALID_API_TOKEN", async () => {
    const { ctx } = await ready();
    const { token: session } = await loginAs(ctx, { profile: "admin" });
    expect(
      (await call(ctx.app, "POST", "/api/messages/send", { body: { number: "5511988887777", body: "x" } })).json,
    ).toEqual({ error: "ERR_SESSION_EXPIRED" });
    for (const token of ["enabled", "43200", session]) {
      const res = await send(ctx, { number: "5511988887777", body: "x" }, token);
      expect(res.status).toBe(401);
      expect(res.json.error).toBe("ERR_INVALID_API_TOKEN");
    }
    expect(await ctx.db.select().from(messages)).toHaveLength(0);
  });

  test("a big multipart body with a wrong token is refused before it is read", async () => {
    const { ctx } = await ready();
    const form = new FormData();
    form.append("number", "5511988887777");
    form.append("medias", new File([new Uint8Array(200 * 1024)], "big.bin"));
    const res = await ctx.app.handle(
      new Request(`${BASE}/api/messages/send`, {
        method: "POST",
        headers: { authorization: "Bearer enabled" },
        body: form,
      }),
    );
    expect(res.status).toBe(401);
  });

  test("a number with no digits is 400 ERR_INVALID_NUMBER; one not on WhatsApp is 400 ERR_WAPP_INVALID_CONTACT", async () => {
    const { ctx } = await ready();
    expect(await send(ctx, { number: "abc", body: "x" })).toMatchObject({
      status: 400,
      json: { error: "ERR_INVALID_NUMBER" },
    });
    expect(await send(ctx, { number: "123", body: "x" })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_INVALID_CONTACT" },
    });
    expect(await send(ctx, { body: "x" })).toMatchObject({ status: 400, json: { error: "ERR_INVALID_NUMBER" } });
    expect(await send(ctx, { number: "5511988887777", body: "x", whatsappId: 999 })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_WAPP_FOUND" },
    });
    expect(await send(ctx, { number: "5511988887777", body: "  " })).toMatchObject({ status: 400 });
    expect(await ctx.db.select().from(tickets)).toHaveLength(0);
  });

  test("without a default connection it is 400 ERR_NO_DEF_WAPP_FOUND", async () => {
    const ctx = await makeTestApp();
    expect(await send(ctx, { number: "5511988887777", body: "x" })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_DEF_WAPP_FOUND" },
    });
  });

  test("past the burst a token gets 429 until the clock lets it send again", async () => {
    const { ctx } = await ready();
    for (let i = 0; i < API_BURST; i++) expect((await send(ctx, { number: "abc", body: "x" })).status).toBe(400);
    expect(await send(ctx, { number: "5511988887777", body: "x" })).toMatchObject({
      status: 429,
      json: { error: "ERR_TOO_MANY_ATTEMPTS" },
    });
    ctx.clock.advance(1000);
    expect((await send(ctx, { number: "5511988887777", body: "x" })).status).toBe(200);
  });

  test("regenerating the token (admin only) retires the old one at once", async () => {
    const { ctx } = await ready();
    const old = await apiToken(ctx);
    const { token: agent } = await loginAs(ctx);
    expect((await call(ctx.app, "POST", "/api/settings/userApiToken/regenerate", { token: agent })).status).toBe(403);
    const { token: admin } = await loginAs(ctx, { profile: "admin" });
    const res = await call(ctx.app, "POST", "/api/settings/userApiToken/regenerate", { token: admin });
    expect(res.status).toBe(200);
    expect(res.json.value).not.toBe(old);
    expect((await firstRow(ctx.db.select().from(settings).where(eq(settings.key, "userApiToken"))))!.value).toBe(
      res.json.value,
    );
    expect((await send(ctx, { number: "5511988887777", body: "x" }, old)).status).toBe(401);
    expect((await send(ctx, { number: "5511988887777", body: "x" }, res.json.value)).status).toBe(200);
    expect(ctx.hub.named("settings").at(-1)!.payload.setting.value).toBe(res.json.value);
  });

  test("GET /api/docs describes the endpoint in OpenAPI", async () => {
    const { ctx } = await ready();
    const res = await call(ctx.app, "GET", "/api/docs");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toStartWith("3.");
    expect(Object.keys(res.json.paths["/messages/send"].post.responses)).toEqual(["200", "400", "401", "413", "429"]);
  });
});
