import { one, first } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, schedules, tickets } from "../../src/db/tables";
import { addSandboxConnection, addUser, bootE2E, openPage, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let agentId: number;
const AGENT = { email: "lia@example.com", password: "secret-123", name: "Lia Agent" };

beforeAll(async () => {
  env = await bootE2E();
  agentId = await addUser(env, AGENT, "user");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

describe("send later", () => {
  test("the clock button opens the schedule modal with the chat's contact and typed text; the schedule appears in /schedules", async () => {
    const db = env.deps.db;
    const contactId = (
      await one(db.insert(contacts).values({ name: "Rita Agenda", number: "5511944443333" }).returning())
    ).id;
    const ticketId = (
      await one(db.insert(tickets).values({ status: "open", contactId, whatsappId, userId: agentId }).returning())
    ).id;
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, AGENT);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');

    await page.getByLabel("Type a message").fill("Amanhã confirmo o horário com você");
    await page.getByRole("button", { name: "Send later" }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(await dialog.locator("#schedule-contact").inputValue()).toBe("Rita Agenda");
    expect(await dialog.locator("#schedule-body").inputValue()).toBe("Amanhã confirmo o horário com você");
    // The date reads as everywhere else in the app (dd/MM/yyyy HH:mm), not in the browser's own format.
    const sendAt = dialog.getByLabel("Send at");
    expect(await sendAt.inputValue()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await sendAt.fill("31/02/2031 10:00");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.locator(".field-error", { hasText: "Write the date as dd/mm/yyyy hh:mm" }).waitFor();
    // The calendar button's picker writes its choice back in the app's format.
    await dialog.locator(".date-time-picker").fill("2031-01-02T08:15", { force: true });
    expect(await sendAt.inputValue()).toBe("02/01/2031 08:15");
    await sendAt.fill("25/12/2031 10:30");
    const expectedSendAt = await page.evaluate(() => new Date(2031, 11, 25, 10, 30).toISOString());
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await page.getByLabel("Type a message").inputValue()).toBe("");

    const saved = (await first(db.select().from(schedules).where(eq(schedules.contactId, contactId))))!;
    expect(saved).toMatchObject({
      body: "Amanhã confirmo o horário com você",
      ticketId,
      userId: agentId,
      status: "PENDENTE",
    });
    expect(new Date(saved.sendAt).toISOString()).toBe(expectedSendAt);

    await page.locator("#drawer").getByRole("link", { name: "Schedules" }).click();
    await page.waitForURL(`${env.base}/schedules`);
    const row = page.locator("tbody tr", { hasText: "Rita Agenda" });
    await row.waitFor();
    expect(await row.locator("td").nth(1).textContent()).toBe("Amanhã confirmo o horário...");
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
