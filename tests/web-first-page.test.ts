// @engine once
import { one } from "../src/db/client";
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  connections,
  contacts,
  massMessages,
  messages,
  queues,
  quickAnswers,
  tags,
  tickets,
  webhookDeliveries,
} from "../src/db/tables";
import { BASE, call, islandProps, loginAs, makeTestApp, type TestContext } from "./helpers";

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestApp();
});

async function page(path: string, cookie: string) {
  const res = await ctx.app.handle(new Request(BASE + path, { headers: { cookie, "accept-language": "en" } }));
  return { status: res.status, html: await res.text() };
}

let seq = 0;
const contact = async (name = `Contact ${++seq}`) =>
  await one(
    ctx.db
      .insert(contacts)
      .values({ name, number: `55119${String(++seq).padStart(8, "0")}` })
      .returning(),
  );

describe("list screens get their first page from the page route", () => {
  test("each list is rendered with its rows in the HTML and the same rows in the island's props", async () => {
    const admin = await loginAs(ctx, { profile: "admin", name: "Ana Admin" });
    await contact("Bia Contact");
    await ctx.db.insert(tags).values({ name: "Urgent-tag" });
    await ctx.db.insert(quickAnswers).values({ shortcut: "hello-qa", message: "Hello!" });
    await ctx.db.insert(queues).values({ name: "Sales-queue", color: "#123456" });
    await ctx.db.insert(connections).values({ name: "Main-line", provider: "sandbox" });
    const screens = [
      ["/contacts", "AgentContacts", "Bia Contact"],
      ["/quickAnswers", "AgentQuickAnswers", "/hello-qa"],
      ["/tags", "AdminTags", "Urgent-tag"],
      ["/users", "AdminUsers", "Ana Admin"],
      ["/Queues", "AdminQueues", "Sales-queue"],
      ["/connections", "AdminConnections", "Main-line"],
    ] as const;
    for (const [path, island, text] of screens) {
      const res = await page(path, admin.cookie);
      expect({ path, rendered: res.html.includes(`>${text}<`) }).toEqual({ path, rendered: true });
      const initial = islandProps(res.html, island).initial;
      const rows = Array.isArray(initial) ? initial : initial.rows;
      expect(JSON.stringify(rows)).toContain(text.replace(/^\//, ""));
    }
  });

  test("only the first page is embedded; the island is told there is more", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    for (let i = 0; i < 45; i++) await contact(`Person ${String(i).padStart(2, "0")}`);
    const initial = islandProps((await page("/contacts", cookie)).html, "AgentContacts").initial;
    expect(initial.rows.length).toBeLessThan(45);
    expect(initial.rows[0].name).toBe("Person 00");
    expect(initial.hasMore).toBe(true);
  });
});

describe("tickets page data", () => {
  test("/tickets/:id renders the chat's messages and the first page of the assigned and pending lists", async () => {
    const { cookie, user } = await loginAs(ctx, { profile: "admin" });
    const mine = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: (await contact("Carla")).id, status: "open", userId: user.id, unreadMessages: 2 })
        .returning(),
    );
    const waiting = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: (await contact()).id, status: "pending" })
        .returning(),
    );
    const at = new Date("2026-03-01T09:15:00.000Z");
    await ctx.db.insert(messages).values({ wid: "W1", ticketId: mine.id, body: "Where is my order?", createdAt: at });
    const res = await page(`/tickets/${mine.id}`, cookie);
    expect(res.html).toContain("Where is my order?");
    const chat = islandProps(res.html, "Chat").initial;
    expect(chat.ticket.id).toBe(mine.id);
    expect(chat.messages.map((m: { body: string }) => m.body)).toEqual(["Where is my order?"]);
    const list = islandProps(res.html, "TicketsManager").initial;
    expect(list.open.tickets.map((t: { id: number }) => t.id)).toEqual([mine.id]);
    expect(list.pending.tickets.map((t: { id: number }) => t.id)).toEqual([waiting.id]);
    // Times and day separators are the browser's: the server leaves them for the client to fill in.
    expect(res.html).toContain(`<time dateTime="${at.toISOString()}"></time>`);
    expect(res.html).not.toContain("01/03/2026");
    // Opening the chat read the ticket before the list was loaded.
    expect(list.open.tickets[0].unreadMessages).toBe(0);
  });

  test("a ticket the user may not see gets no chat data, and stays out of their lists", async () => {
    const other = await one(ctx.db.insert(queues).values({ name: "Other", color: "#000001" }).returning());
    const hidden = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: (await contact()).id, status: "pending", queueId: other.id })
        .returning(),
    );
    await ctx.db.insert(messages).values({ wid: "W2", ticketId: hidden.id, body: "secret text" });
    const { cookie } = await loginAs(ctx, { profile: "user" });
    const res = await page(`/tickets/${hidden.id}`, cookie);
    expect(res.html).not.toContain("secret text");
    expect(islandProps(res.html, "Chat").initial).toBeNull();
    expect(islandProps(res.html, "TicketsManager").initial.pending.tickets).toEqual([]);
  });
});

describe("admin screens get their data from the page route", () => {
  const get = async (path: string, token: string) => (await call(ctx.app, "GET", path, { token })).json;

  test("settings, webhooks and the shipping report carry what their API routes answer", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-first-page-"));
    ctx = await makeTestApp({ dataDir });
    mkdirSync(join(dataDir, "backups"), { recursive: true });
    writeFileSync(join(dataDir, "backups", "zapdesk-2026-01-02T03-04-05-000Z.sqlite"), "x");
    const { cookie, token } = await loginAs(ctx, { profile: "admin" });
    const line = await one(ctx.db.insert(connections).values({ name: "Bulk-line", provider: "sandbox" }).returning());
    const endpoint = (
      await call(ctx.app, "POST", "/api/webhooks", {
        token,
        body: { url: "https://hooks.example.com/in", events: ["ticket.status"] },
      })
    ).json;
    await ctx.db
      .insert(webhookDeliveries)
      .values({ endpointId: endpoint.id, event: "ticket.status", dedupeKey: "k1", body: "{}" });
    await ctx.db.insert(massMessages).values({ whatsappId: line.id, phone: "5511912345678", message: "Promo" });

    const settings = islandProps((await page("/Settings", cookie)).html, "AdminSettings").initial;
    expect(settings).toEqual({
      settings: await get("/api/settings", token),
      backups: await get("/api/backups", token),
      offsite: await get("/api/backups/offsite", token),
    });
    expect(settings.backups.map((b: { name: string }) => b.name)).toEqual(["zapdesk-2026-01-02T03-04-05-000Z.sqlite"]);

    const hooks = await page("/webhooks", cookie);
    expect(hooks.html).toContain(">https://hooks.example.com/in<");
    expect(islandProps(hooks.html, "AdminWebhooks").initial).toEqual({
      endpoints: await get("/api/webhooks", token),
      deliveries: (await get("/api/webhooks/deliveries", token)).deliveries,
    });

    const report = await page("/ShippingReport", cookie);
    expect(report.html).toContain(">5511912345678<");
    const answer = await get("/api/bulkMessage/report", token);
    expect(islandProps(report.html, "BulkReport").initial).toEqual({ rows: answer.messages, hasMore: answer.hasMore });

    for (const [path, island] of [
      ["/BulkMessage", "BulkMessage"],
      ["/SettingsMessage", "BulkSettings"],
    ] as const) {
      const res = await page(path, cookie);
      expect(res.html).toContain(">Bulk-line</option>");
      expect(islandProps(res.html, island).connections).toEqual([
        { id: line.id, name: "Bulk-line", number: line.number, isDefault: line.isDefault, provider: "sandbox" },
      ]);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("an agent opening an admin screen gets none of its data", async () => {
    const admin = await loginAs(ctx, { profile: "admin" });
    await call(ctx.app, "POST", "/api/webhooks", {
      token: admin.token,
      body: { url: "https://hooks.example.com/secret", events: ["ticket.status"] },
    });
    const agent = await loginAs(ctx, { profile: "user" });
    for (const path of ["/webhooks", "/Settings", "/ShippingReport", "/BulkMessage"]) {
      const res = await page(path, agent.cookie);
      expect({ path, forbidden: res.html.includes('data-forbidden="true"') }).toEqual({ path, forbidden: true });
      expect(res.html).not.toContain("hooks.example.com");
      expect(res.html).not.toContain("whsec_");
    }
  });
});
