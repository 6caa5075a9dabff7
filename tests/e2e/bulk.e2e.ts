import { one, first } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { contacts, massMessages, optOuts, settingsMessage, tickets, connections } from "../../src/db/tables";
import { bootE2E, openPage, addUser, logIn as logInAs, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "bea@example.com", password: "secret-123", name: "Bea Admin" };

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  await env?.deps.jobs.stop();
  await env?.stop();
});

function logIn(page: Page) {
  return logInAs(page, env.base, ADMIN);
}

async function open(page: Page, path: string, island: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector(`[data-island="${island}"][data-hydrated="true"]`);
}

describe("bulk screens", () => {
  test("an admin sets the throttling, previews a CSV campaign, sends it, watches progress and the report move live, and clears an opt-out from the contact drawer", async () => {
    const w = await one(env.deps.db.insert(connections).values({ name: "Campaigns", provider: "sandbox" }).returning());
    await env.deps.channels.start(w.id);
    await env.sandbox.scan(w.id);

    const { context, page, errors } = await openPage(env.browser);
    await logIn(page);
    for (const entry of ["Bulk message", "Shipping report", "Message settings"])
      await page.locator("#drawer a", { hasText: entry }).waitFor();

    await open(page, "/SettingsMessage", "BulkSettings");
    await page.getByLabel("Connection").selectOption(String(w.id));
    await page.getByLabel("Limit per 24 h").fill("10");
    await page.getByLabel("Wait (minutes)").fill("0");
    await page.getByLabel("Wait (seconds)").fill("1");
    await page.getByLabel("Opt-out keyword").fill("STOP");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForSelector("text=Settings saved");
    expect(
      await first(env.deps.db.select().from(settingsMessage).where(eq(settingsMessage.whatsappId, w.id))),
    ).toMatchObject({
      limit: 10,
      minutes: 0,
      seconds: 1,
      optOut: "STOP",
    });

    const report = await context.newPage();
    await report.goto(`${env.base}/ShippingReport`);
    await report.waitForSelector('[data-island="BulkReport"][data-hydrated="true"]');

    await open(page, "/BulkMessage", "BulkMessage");
    await page.getByRole("heading", { name: "Send Messages" }).waitFor();
    await page.getByLabel("Connection").selectOption(String(w.id));
    await page.getByLabel("Template").fill("Hi {name}, see you in {city}");
    await page.getByLabel("Data").fill('phone;name;city\n11999990001;Ana;"Rio; RJ"\n11999990002;Bia;Recife');
    await page.getByRole("button", { name: "Show preview" }).click();
    await page.locator('[data-preview-phone="5511999990001"]', { hasText: "Hi Ana, see you in Rio; RJ" }).waitFor();
    await page.locator('[data-preview-phone="5511999990002"]', { hasText: "Hi Bia, see you in Recife" }).waitFor();
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.waitForSelector("text=2 messages saved to the database");
    await page.locator('.bulk-progress[data-pending="2"]').waitFor();
    expect((await env.deps.db.select().from(massMessages)).map((r) => r.phone)).toEqual([
      "5511999990001",
      "5511999990002",
    ]);
    await report.locator('tr[data-status="pending"]').nth(1).waitFor();

    env.deps.jobs.start(200);
    await page.locator('.bulk-progress[data-sent="2"][data-pending="0"]').waitFor({ timeout: 15_000 });
    await report.locator('tr[data-status="sent"]').nth(1).waitFor();
    await snapshot(page, "e2e-bulk-send-1440");
    await snapshot(report, "e2e-bulk-report-1440");
    expect((await env.sandbox.network.outbox(w.id)).map((m) => m.body)).toEqual([
      "Hi Ana, see you in Rio; RJ",
      "Hi Bia, see you in Recife",
    ]);
    expect(errors).toEqual([]);

    // The first recipient answers with the opt-out keyword: the contact drawer shows it and the admin clears it.
    await env.sandbox.inbound(w.id, { from: "5511999990001", body: "stop" });
    const contact = (await first(env.deps.db.select().from(contacts).where(eq(contacts.number, "5511999990001"))))!;
    const ticket = (await first(env.deps.db.select().from(tickets).where(eq(tickets.contactId, contact.id))))!;
    await open(page, `/tickets/${ticket.id}`, "Chat");
    await page.locator("button.chat-title").click();
    const entry = page.locator(`.contact-opt-outs [data-opt-out="${w.id}"]`, { hasText: "Campaigns" });
    await entry.waitFor();
    await snapshot(page, "e2e-bulk-opt-out-1440");
    await entry.getByRole("button", { name: "Clear the opt-out on Campaigns" }).click();
    await page.waitForSelector("text=Opt-out cleared");
    expect(await env.deps.db.select().from(optOuts)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
