// @engine once
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { connections, contacts, messages, tickets, users } from "../src/db/tables";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const FRONTEND = "https://helpdesk.example.com";

describe("a user without a default connection, as the whaticket family sends it", () => {
  for (const none of [false, null, "", 0]) {
    test(`whatsappId ${JSON.stringify(none)} creates and updates a user with no connection`, async () => {
      const ctx = await makeTestApp();
      const { token } = await loginAs(ctx, { profile: "admin" });
      const created = await call(ctx.app, "POST", "/api/users", {
        token,
        body: { name: "Bea", email: "bea@example.com", password: "secret1", profile: "user", whatsappId: none },
      });
      expect(created).toMatchObject({ status: 200, json: { name: "Bea", whatsappId: null } });
      const w = await one(ctx.db.insert(connections).values({ name: "Main" }).returning());
      await ctx.db.update(users).set({ whatsappId: w.id }).where(eq(users.id, created.json.id));
      const updated = await call(ctx.app, "PUT", `/api/users/${created.json.id}`, {
        token,
        body: { name: "Bea", email: "bea@example.com", profile: "user", whatsappId: none, queueIds: [] },
      });
      expect(updated).toMatchObject({ status: 200, json: { whatsappId: null } });
    });
  }

  test("any other value is still refused", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const res = await call(ctx.app, "POST", "/api/users", {
      token,
      body: { name: "Bea", email: "bea@example.com", password: "secret1", whatsappId: true },
    });
    expect(res).toMatchObject({ status: 400, json: { error: "VALIDATION", field: "whatsappId" } });
  });
});

describe("GET /settingsMessage/ without a connection id", () => {
  test("answers {} when no connection other than the default has settings", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    expect(await call(ctx.app, "GET", "/api/settingsMessage/", { token })).toMatchObject({ status: 200, json: {} });
    await ctx.db.insert(connections).values({ name: "Default", isDefault: true });
    expect(await call(ctx.app, "GET", "/api/settingsMessage/", { token })).toMatchObject({ status: 200, json: {} });
  });

  test("answers the settings of the first connection that is not the default", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const main = await one(ctx.db.insert(connections).values({ name: "Default", isDefault: true }).returning());
    const second = await one(ctx.db.insert(connections).values({ name: "Second" }).returning());
    const third = await one(ctx.db.insert(connections).values({ name: "Third" }).returning());
    for (const [w, limit] of [
      [main, 10],
      [second, 20],
      [third, 30],
    ] as const)
      await call(ctx.app, "POST", "/api/settingsMessage", { token, body: { whatsappId: w.id, limit } });
    expect(await call(ctx.app, "GET", "/api/settingsMessage/", { token })).toMatchObject({
      status: 200,
      json: { whatsappId: second.id, limit: 20 },
    });
  });

  test("is for admins only, like the route with an id", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    expect(await call(ctx.app, "GET", "/api/settingsMessage/", { token })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
  });
});

/** A ticket with a contact card and a location, the location quoting the card. */
async function cardAndLocation(ctx: TestContext) {
  const contact = await one(ctx.db.insert(contacts).values({ name: "Rui", number: "5511966665555" }).returning());
  const ticket = await one(ctx.db.insert(tickets).values({ contactId: contact.id, status: "open" }).returning());
  const base = { ticketId: ticket.id, contactId: contact.id, fromMe: false };
  const card = await one(
    ctx.db
      .insert(messages)
      .values({ ...base, wid: "card", mediaType: "vcard", body: "BEGIN:VCARD\nFN:Lu\nTEL:+5511900000000\nEND:VCARD" })
      .returning(),
  );
  await ctx.db.insert(messages).values({
    ...base,
    wid: "place",
    mediaType: "location",
    body: "data:image/png;base64,AA==|https://maps.google.com/maps?q=-23.5,-46.6|-23.5, -46.6",
    quotedMsgId: card.id,
  });
  return ticket.id;
}

describe("media types in the whaticket family's names", () => {
  test("pages of a CORS_ORIGINS origin get contactMessage and locationMessage, quotes included", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const ticketId = await cardAndLocation(ctx);
    const res = await call(ctx.app, "GET", `/api/messages/${ticketId}`, { token, headers: { origin: FRONTEND } });
    expect(res.json.messages.map((m: { mediaType: string }) => m.mediaType)).toEqual([
      "contactMessage",
      "locationMessage",
    ]);
    expect(res.json.messages[1].quotedMsg).toMatchObject({ mediaType: "contactMessage" });
  });

  test("our own pages and other callers keep Zapdesk's names", async () => {
    const ctx = await makeTestApp({ corsOrigins: [FRONTEND] });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const ticketId = await cardAndLocation(ctx);
    const callers: Record<string, string>[] = [{}, { origin: "http://localhost" }, { origin: "https://evil.example" }];
    for (const headers of callers) {
      const res = await call(ctx.app, "GET", `/api/messages/${ticketId}`, { token, headers });
      expect(res.json.messages.map((m: { mediaType: string }) => m.mediaType)).toEqual(["vcard", "location"]);
    }
    const stored = await ctx.db.select({ mediaType: messages.mediaType }).from(messages);
    expect(stored.map((m) => m.mediaType)).toEqual(["vcard", "location"]);
  });
});

describe("errors the family's clients would show as a bare code", () => {
  test("contact import before a number reported its phone book answers ERR_NO_PHONEBOOK with its text in the caller's language", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    await ctx.db.insert(connections).values({ name: "Phone", provider: "baileys", isDefault: true });
    const pt = await call(ctx.app, "POST", "/api/contacts/import", {
      token,
      headers: { "accept-language": "pt-BR,pt;q=0.9" },
    });
    expect(pt).toMatchObject({
      status: 400,
      json: {
        error: "ERR_NO_PHONEBOOK",
        message: "Ainda não há agenda: conecte o número e tente de novo em instantes.",
      },
    });
    const en = await call(ctx.app, "POST", "/api/contacts/import", { token });
    expect(en.json.message).toBe("No phone book yet: connect the number and try again in a moment.");
  });

  test("contact import on a sandbox connection says the sandbox has no phone book, as its customers become contacts as they write", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    await createSandboxConnection(ctx, { isDefault: true });
    expect(await call(ctx.app, "POST", "/api/contacts/import", { token })).toMatchObject({
      status: 400,
      json: {
        error: "ERR_SANDBOX_NO_PHONEBOOK",
        message:
          "A sandbox connection has no phone book to import: its customers become contacts as soon as they write from the Sandbox page.",
      },
    });
  });

  test("codes the family translates itself answer without a message", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const res = await call(ctx.app, "GET", "/api/settings", { token });
    expect(res).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    expect(res.json.message).toBeUndefined();
  });
});

describe("tokens as the family's clients expect", () => {
  test("a corrupt token answers 403 so the client refreshes once; the refresh works, a failed one answers 401", async () => {
    const ctx = await makeTestApp();
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    expect(await call(ctx.app, "GET", "/api/users", { token: "corrupt.token.value" })).toMatchObject({
      status: 403,
      json: { error: "ERR_SESSION_EXPIRED" },
    });
    const refreshed = await call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie } });
    expect(refreshed.status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: refreshed.json.token })).status).toBe(200);
    expect((await call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie: "rt=corrupt" } })).status).toBe(
      401,
    );
  });
});
