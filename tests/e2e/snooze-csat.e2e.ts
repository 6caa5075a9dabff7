import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { tickets } from "../../src/db/tables";
import { addSandboxConnection, addTicket, addUser, bootE2E, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const PASSWORD = "secret-123";
const ADA = { name: "Ada Admin", email: "ada@example.com", password: PASSWORD };
const ANA = { name: "Ana", email: "ana@example.com", password: PASSWORD };
let anaId: number;
let whatsappId: number;

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADA, "admin");
  anaId = await addUser(env, ANA, "user");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function tokenOf(who: { email: string; password: string }) {
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(who),
  });
  return ((await login.json()) as { token: string }).token;
}

describe("snooze and the customer's rating in the browser", () => {
  test("Snooze → Tomorrow takes the ticket out of In service into Snoozed; the customer writing brings it back live with a notice; a date picked in the app's format snoozes it again", async () => {
    const ticketId = await addTicket(env, {
      name: "Sonia Soneca",
      number: "5511977770001",
      whatsappId,
      userId: anaId,
      bodies: ["Can you call me tomorrow?"],
    });
    const { page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ANA);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    const row = page.locator(`.ticket-list a[href="/tickets/${ticketId}"]`);
    await row.waitFor();

    await page.locator(".chat-snooze > button").click();
    await page.getByRole("menuitem", { name: "Tomorrow" }).click();
    await row.waitFor({ state: "detached" });
    const snoozedUntil = (await env.deps.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!.snoozedUntil;
    expect(snoozedUntil!.getTime()).toBeGreaterThan(Date.now());

    await page.getByRole("tab", { name: "Snoozed" }).click();
    await row.waitFor();
    await snapshot(page, "e2e-snoozed-1440");

    // The Snoozed list follows the socket: the ticket leaves it as soon as the customer's message wakes it.
    const inbound = await fetch(`${env.base}/api/sandbox/${whatsappId}/inbound`, {
      method: "POST",
      headers: { authorization: `Bearer ${await tokenOf(ADA)}`, "content-type": "application/json" },
      body: JSON.stringify({ from: "5511977770001", name: "Sonia Soneca", body: "Any news?" }),
    });
    expect(inbound.status).toBe(200);
    await page.locator(".toast", { hasText: "Sonia Soneca" }).waitFor();
    await row.waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "In service" }).click();
    await row.waitFor();

    // A picked date is written as the app writes dates (dd/MM/yyyy HH:mm), and the header shows it so.
    await row.click();
    await page.locator(".chat-snooze > button").click();
    await page.getByLabel("Pick a date").fill("25/12/2031 09:30");
    const expected = await page.evaluate(() => new Date(2031, 11, 25, 9, 30).getTime());
    await page.getByRole("menuitem", { name: "Snooze until then" }).click();
    await row.waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Snoozed" }).click();
    await row.click();
    await page.locator(".chat-sub", { hasText: "Snoozed until 25/12/2031 09:30" }).waitFor();
    const picked = (await env.deps.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!.snoozedUntil;
    expect(picked!.getTime()).toBe(expected);
    expect(errors).toEqual([]);
  }, 30_000);

  test("a rated ticket shows its rating in the chat header and, with the comment, in the contact drawer, in Portuguese at 375 px", async () => {
    const ticketId = await addTicket(env, {
      name: "Rita Rating",
      number: "5511977770002",
      whatsappId,
      userId: anaId,
      status: "closed",
      bodies: ["Thanks!"],
    });
    await env.deps.db
      .update(tickets)
      .set({ csatAskedAt: new Date(), csatRating: 4, csatComment: "Muito bom", csatAnsweredAt: new Date() })
      .where(eq(tickets.id, ticketId));
    const { page, errors } = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 740 });
    await signIn(page, env.base, ANA);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".chat-sub", { hasText: "Avaliação 4/5" }).waitFor();
    await page.locator(".chat-title").click();
    const rating = page.locator(".csat-rating");
    await rating.waitFor();
    expect(await rating.textContent()).toContain("⭐⭐⭐⭐ Avaliação 4/5");
    expect(await rating.textContent()).toContain("Muito bom");
    await snapshot(page, "e2e-csat-375");
    expect(errors).toEqual([]);
  }, 30_000);
});
