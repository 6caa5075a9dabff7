import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { queues, tickets } from "../../src/db/tables";
import { addSandboxConnection, addTicket, addUser, bootE2E, logIn, openPage, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const PASSWORD = "secret-123";
const ADA = { name: "Ada Admin", email: "ada@example.com", password: PASSWORD };
const ANA = { name: "Ana", email: "ana@example.com", password: PASSWORD };

beforeAll(async () => {
  env = await bootE2E();
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function openChat(page: Page, ticketId: number) {
  await page.goto(`${env.base}/tickets/${ticketId}`);
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
  await page.locator(".messages .text", { hasText: "Where is my order?" }).waitFor();
}

describe("the ticket's history in the chat", () => {
  test("a transfer shows as a separator in the chats open on the ticket, live and after a reload, translated, in light and dark, at 375 px", async () => {
    const [sales, support] = await env.deps.db
      .insert(queues)
      .values([
        { name: "Sales", color: "#1e88e5" },
        { name: "Support", color: "#43a047" },
      ])
      .returning();
    await addUser(env, ADA, "admin");
    const anaId = await addUser(env, ANA, "user");
    const whatsappId = await addSandboxConnection(env);
    const ticketId = await addTicket(env, {
      name: "Carla Cliente",
      number: "5511977771234",
      whatsappId,
      userId: anaId,
      bodies: ["Hello", "Where is my order?"],
    });
    await env.deps.db.update(tickets).set({ queueId: sales!.id }).where(eq(tickets.id, ticketId));

    const desk = await openPage(env.browser);
    const phone = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 740, colorScheme: "dark" });
    await logIn(desk.page, env.base, ADA);
    await logIn(phone.page, env.base, ADA);
    await openChat(desk.page, ticketId);
    await openChat(phone.page, ticketId);

    // Ana sends the ticket to the Support queue while both chats are open.
    const login = await fetch(`${env.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ANA.email, password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const transfer = await fetch(`${env.base}/api/tickets/${ticketId}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ queueId: support!.id }),
    });
    expect(transfer.status).toBe(200);

    const english = desk.page.locator(".event-separator", { hasText: "Transferred to Support by Ana" });
    const portuguese = phone.page.locator(".event-separator", { hasText: "Transferido para Support por Ana" });
    await english.waitFor();
    await portuguese.waitFor();
    // After the customer's last message, with the time it happened.
    expect(await english.textContent()).toMatch(/^Transferred to Support by Ana · \d{2}:\d{2}$/);
    const order = (await desk.page.locator(".messages").textContent()) ?? "";
    expect(order.indexOf("Where is my order?")).toBeLessThan(order.indexOf("Transferred to Support by Ana"));

    // Readable in dark mode and inside a phone's width.
    const look = await portuguese.evaluate((el) => {
      const box = el.querySelector("span")!.getBoundingClientRect();
      const style = getComputedStyle(el);
      return { color: style.color, right: box.right, width: document.documentElement.clientWidth };
    });
    expect(look.color).toBe("rgb(134, 150, 160)");
    expect(look.right).toBeLessThanOrEqual(look.width);
    await snapshot(phone.page, "e2e-ticket-history-375-dark");
    await snapshot(desk.page, "e2e-ticket-history-1440");

    // The history is read again with the messages when the chat opens anew.
    await openChat(desk.page, ticketId);
    await english.waitFor();
    expect(await desk.page.locator(".event-separator").count()).toBe(1);

    expect(desk.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await desk.context.close();
    await phone.context.close();
  }, 30_000);
});
