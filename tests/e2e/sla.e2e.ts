import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { queues, tickets } from "../../src/db/tables";
import { recordSlaBreaches } from "../../src/modules/tickets/sla-sweep";
import { addSandboxConnection, addTicket, addUser, bootE2E, logIn, openPage, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADA = { name: "Ada Admin", email: "ada@example.com", password: "secret-123" };

beforeAll(async () => {
  env = await bootE2E();
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

describe("SLAs in the browser", () => {
  test("the queue modal saves the targets; the list shows the customer's wait and the breach mark; the admin's bell lists the breach, also after a reload, in en and pt, light and dark, at 375 px", async () => {
    const adaId = await addUser(env, ADA, "admin");
    const whatsappId = await addSandboxConnection(env);
    const desk = await openPage(env.browser);
    const phone = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 740, colorScheme: "dark" });
    await logIn(desk.page, env.base, ADA);
    await logIn(phone.page, env.base, ADA);

    await desk.page.goto(`${env.base}/Queues`);
    await desk.page.waitForSelector('[data-island="AdminQueues"][data-hydrated="true"]');
    await desk.page.click("text=Add queue");
    const modal = desk.page.locator("dialog.admin-modal");
    await modal.getByLabel("Name", { exact: true }).fill("Sales");
    await modal.getByLabel("Colour", { exact: true }).fill("#aa3300");
    await modal.getByLabel("First reply within (minutes)").fill("10");
    await modal.getByLabel("Resolve within (minutes)").fill("240");
    await snapshot(desk.page, "e2e-sla-queue-modal");
    await modal.getByRole("button", { name: "Save" }).click();
    await desk.page.waitForSelector("text=Queue saved.");
    const sales = (await first(env.deps.db.select().from(queues).where(eq(queues.name, "Sales"))))!;
    expect(sales).toMatchObject({ firstResponseMinutes: 10, resolutionMinutes: 240 });

    const ticketId = await addTicket(env, {
      name: "Carla Cliente",
      number: "5511977771234",
      whatsappId,
      userId: adaId,
      hoursAgo: 0.2,
      bodies: ["Where is my order?"],
    });
    await env.deps.db
      .update(tickets)
      .set({ queueId: sales.id, waitingSince: new Date(Date.now() - 12 * 60_000) })
      .where(eq(tickets.id, ticketId));

    for (const { page } of [desk, phone]) {
      await page.goto(`${env.base}/tickets`);
      await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    }
    await desk.page.locator(".ticket-row .waiting.breached", { hasText: "12 min" }).waitFor();
    await phone.page.locator(".ticket-row .waiting.breached", { hasText: "12 min" }).waitFor();
    expect(await desk.page.locator(".ticket-row .waiting").getAttribute("title")).toBe(
      "Waiting for a reply for 12 min · SLA target passed",
    );
    expect(await phone.page.locator(".ticket-row .waiting").getAttribute("title")).toBe(
      "Aguardando resposta há 12 min · Meta de SLA ultrapassada",
    );

    expect(await recordSlaBreaches(env.deps)).toBe(1);
    for (const { page } of [desk, phone]) await page.locator(".bell .badge").waitFor();
    await desk.page.getByRole("button", { name: "Notifications" }).click();
    await desk.page.locator(".bell .menu-row", { hasText: "Passed the first-reply target" }).waitFor();
    await snapshot(desk.page, "e2e-sla-list-bell-1440");
    await phone.page.locator(".bell button").first().click();
    await phone.page.locator(".bell .menu-row", { hasText: "Ultrapassou a meta de primeira resposta" }).waitFor();
    await snapshot(phone.page, "e2e-sla-list-bell-375-dark");
    // After a reload the bell still lists the unresolved ticket that passed its target.
    await desk.page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await desk.page.reload();
    await desk.page.waitForSelector('[data-island="NotificationsBell"][data-hydrated="true"]');
    await desk.page.getByRole("button", { name: "Notifications" }).click();
    await desk.page.locator(".bell .menu-row", { hasText: "Passed the first-reply target" }).waitFor();
    expect([...desk.errors, ...phone.errors]).toEqual([]);
  }, 30_000);
});
