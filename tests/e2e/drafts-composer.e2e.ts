import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { first } from "../../src/db/client";
import { ticketDrafts, tickets } from "../../src/db/tables";
import { addSandboxConnection, addTicket, addUser, bootE2E, logIn, openPage, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "dora@example.com", password: "secret-123", name: "Dora Rascunho" };
let seq = 0;

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** A ticket of the admin's (open unless said) with one customer message, newest first in the list. */
async function seedTicket(name: string, status: "open" | "closed" = "open") {
  const number = `55119700000${String(++seq).padStart(2, "0")}`;
  return await addTicket(env, {
    name,
    number,
    whatsappId,
    userId: adminId,
    status,
    hoursAgo: 1 / seq,
    bodies: [`Oi, sou ${name}`],
  });
}

const row = (page: Page, ticketId: number) => page.locator(`.ticket-list li[data-ticket-id="${ticketId}"]`);
const field = (page: Page) => page.getByRole("textbox", { name: "Type a message" });

/** The admin signed in on a fresh page, with the tickets list ready. */
async function signedIn(opts: Parameters<typeof openPage>[1] = {}) {
  const opened = await openPage(env.browser, opts);
  await logIn(opened.page, env.base, ADMIN);
  await opened.page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
  return opened;
}

/** Loads `path` (a ticket's address) and waits for its chat to be ready. */
async function openChat(page: Page, path: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
}

/** Waits until the composer's text is, or is not, empty. */
async function fieldEmpty(page: Page, empty: boolean) {
  await page.waitForFunction(
    (want) => ((document.querySelector(".composer textarea") as HTMLTextAreaElement)?.value === "") === want,
    empty,
  );
}

async function openFromList(page: Page, ticketId: number, name: string) {
  await row(page, ticketId).locator("a").click();
  await page.locator(".chat-title", { hasText: name }).waitFor();
}

async function draftStored(ticketId: number) {
  return (await first(env.deps.db.select().from(ticketDrafts).where(eq(ticketDrafts.ticketId, ticketId))))?.body;
}

describe("drafts", () => {
  test("a half-written reply survives switching tickets and a reload, shows as the row's draft, and goes with the send", async () => {
    const first = await seedTicket("Rita Rascunho");
    const second = await seedTicket("Sara Segunda");
    const { context, page, errors } = await signedIn();
    await openFromList(page, first, "Rita Rascunho");
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await field(page).fill("Your order left today, the");

    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/api/tickets/${first}/draft`) && r.request().method() === "PUT",
    );
    await openFromList(page, second, "Sara Segunda");
    await saved;
    await expect(row(page, first).locator(".row-draft").textContent()).resolves.toBe(
      "Draft: Your order left today, the",
    );
    expect(await field(page).inputValue()).toBe("");

    await openFromList(page, first, "Rita Rascunho");
    await fieldEmpty(page, false);
    expect(await field(page).inputValue()).toBe("Your order left today, the");

    await page.reload();
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await fieldEmpty(page, false);
    expect(await field(page).inputValue()).toBe("Your order left today, the");
    await row(page, first).locator(".row-draft").waitFor();

    await field(page).press("End");
    await field(page).type(" 3rd.");
    await field(page).press("Enter");
    await page.locator(".bubble.me", { hasText: "Your order left today, the 3rd." }).waitFor();
    await row(page, first).locator(".row-draft").waitFor({ state: "detached" });
    expect(await draftStored(first)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});

describe("the composer", () => {
  test("at 375 px the field is at least 200×40 from its first paint, opened from the list or by address, and the mic turns into Send", async () => {
    const ticketId = await seedTicket("Paula Telefone");
    const { context, page, errors } = await signedIn({ width: 375, height: 740 });
    await openFromList(page, ticketId, "Paula Telefone");
    const fromList = (await field(page).boundingBox())!;
    expect(fromList.width).toBeGreaterThanOrEqual(200);
    expect(fromList.height).toBeGreaterThanOrEqual(40);
    // Emoji and attach sit inside the field's box.
    const box = (await page.locator(".composer-field").boundingBox())!;
    for (const name of ["Attach file", "Emoji"]) {
      const button = (await page.getByRole("button", { name, exact: false }).first().boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(box.x);
      expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // By address, measured before any script runs.
    await page.route("**/public/islands/**", (route) => route.abort());
    await page.goto(`${env.base}/tickets/${ticketId}`);
    const byUrl = (await field(page).boundingBox())!;
    expect(byUrl.width).toBeGreaterThanOrEqual(200);
    expect(byUrl.height).toBeGreaterThanOrEqual(40);
    await page.unroute("**/public/islands/**");
    // What the page without its scripts reported is not this test's concern.
    errors.length = 0;
    await page.reload();
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');

    await expect(page.getByRole("button", { name: "Send", exact: true }).count()).resolves.toBe(0);
    await field(page).fill("Oi");
    await page.getByRole("button", { name: "Send", exact: true }).waitFor();
    await snapshot(page, "composer-375");
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("on a desktop the field keeps its height after the first send", async () => {
    const ticketId = await seedTicket("Dario Desktop");
    const { context, page, errors } = await signedIn();
    await openChat(page, `/tickets/${ticketId}`);
    const before = (await field(page).boundingBox())!.height;
    await snapshot(page, "composer-1440");
    await field(page).fill("First reply");
    await field(page).press("Enter");
    await page.locator(".bubble.me", { hasText: "First reply" }).waitFor();
    await fieldEmpty(page, true);
    expect((await field(page).boundingBox())!.height).toBe(before);
    expect(before).toBeGreaterThanOrEqual(40);
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});

describe("resolve and reopen", () => {
  test("Undo in the toast after Resolve puts the ticket back in service with its agent", async () => {
    const ticketId = await seedTicket("Ulisses Undo");
    const { context, page, errors } = await signedIn();
    await openChat(page, `/tickets/${ticketId}`);

    await page.locator(".chat-actions").getByRole("button", { name: "Resolve" }).click();
    const toast = page.locator(".toast", { hasText: `Ticket #${ticketId} resolved` });
    await toast.getByRole("button", { name: "Undo" }).click();

    await page.waitForURL(`${env.base}/tickets/${ticketId}`);
    await page.locator(".chat-actions").getByRole("button", { name: "Resolve" }).waitFor();
    await row(page, ticketId).waitFor();
    expect(await page.getByRole("tab", { name: "In service" }).getAttribute("aria-selected")).toBe("true");
    const stored = await first(env.deps.db.select().from(tickets).where(eq(tickets.id, ticketId)));
    expect({ status: stored?.status, userId: stored?.userId }).toEqual({ status: "open", userId: adminId });
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("after Reopen or Accept the list shows the tab the ticket is in now", async () => {
    const closed = await seedTicket("Rui Reaberto", "closed");
    const waiting = await seedTicket("Wagner Espera");
    await env.deps.db.update(tickets).set({ status: "pending", userId: null }).where(eq(tickets.id, waiting));
    const { context, page, errors } = await signedIn();

    await page.getByRole("tab", { name: "Resolved" }).click();
    await openFromList(page, closed, "Rui Reaberto");
    await page.locator(".chat-actions").getByRole("button", { name: "Reopen" }).click();
    await page.locator(".chat-actions").getByRole("button", { name: "Resolve" }).waitFor();
    expect(await page.getByRole("tab", { name: "Inbox" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.getByRole("tab", { name: "In service" }).getAttribute("aria-selected")).toBe("true");
    await row(page, closed).waitFor();

    // A waiting ticket opened by its address, with the list on Waiting.
    await openChat(page, `/tickets/${waiting}?sub=pending`);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    expect(await page.getByRole("tab", { name: "Waiting" }).getAttribute("aria-selected")).toBe("true");
    await page.locator(".chat-actions").getByRole("button", { name: "Accept" }).click();
    await page.locator(".chat-actions").getByRole("button", { name: "Resolve" }).waitFor();
    expect(await page.getByRole("tab", { name: "In service" }).getAttribute("aria-selected")).toBe("true");
    await row(page, waiting).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
