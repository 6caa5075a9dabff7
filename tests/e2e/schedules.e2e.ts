import { one, first } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, schedules, tickets } from "../../src/db/tables";
import { addSandboxConnection, addUser, bootE2E, logIn, openPage } from "./boot";

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
    await logIn(page, env.base, AGENT);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');

    await page.getByLabel("Type a message").fill("Amanhã confirmo o horário com você");
    await page.getByRole("button", { name: "Send later" }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(await dialog.locator("#schedule-contact").inputValue()).toBe("Rita Agenda");
    expect(await dialog.locator("#schedule-body").inputValue()).toBe("Amanhã confirmo o horário com você");
    expect(await dialog.locator("#schedule-send-at").inputValue()).not.toBe("");
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

    await page.locator("#drawer").getByRole("link", { name: "Schedules" }).click();
    await page.waitForURL(`${env.base}/schedules`);
    const row = page.locator("tbody tr", { hasText: "Rita Agenda" });
    await row.waitFor();
    expect(await row.locator("td").nth(1).textContent()).toBe("Amanhã confirmo o horário...");
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
