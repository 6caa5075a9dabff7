import { first } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { tickets } from "../../src/db/tables";
import { addSandboxConnection, addUser, bootE2E, logIn, openPage, snapshot, addTicket, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
let token: string;
const ADMIN = { email: "lia@example.com", password: "secret-123", name: "Lia Agent" };
const _HOUR = 3_600_000;

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  token = ((await login.json()) as { token: string }).token;
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** A contact's ticket of the admin, last active `hoursAgo`, with `bodies` from the customer (unread when open). */
async function seedTicket(
  name: string,
  number: string,
  status: "open" | "closed",
  hoursAgo: number,
  bodies: string[] = [`Oi, aqui é ${name}`],
) {
  return await addTicket(env, {
    name,
    number,
    whatsappId,
    userId: adminId,
    status,
    hoursAgo,
    bodies,
    unread: status === "open",
  });
}

const ticketRow = async (id: number) => (await first(env.deps.db.select().from(tickets).where(eq(tickets.id, id))))!;

/** The customer `from` writes to the sandbox connection, as their phone would. */
async function customerWrites(from: string, body: string) {
  const res = await fetch(`${env.base}/api/sandbox/${whatsappId}/inbound`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ from, body }),
  });
  if (!res.ok) throw new Error(`inbound: ${res.status} ${await res.text()}`);
}

async function chatShows(page: Page, name: string) {
  await page.locator(".chat-title", { hasText: name }).waitFor();
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
}

describe("tickets page navigation", () => {
  test("switching tickets keeps the page and the Resolved tab; back goes to the previous chat; a reload lands on the same view", async () => {
    const rita = await seedTicket("Rita Resolvida", "5511940000001", "closed", 3);
    const raul = await seedTicket("Raul Resolvido", "5511940000002", "closed", 4);
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.evaluate(() => {
      (window as Window & { kept?: string }).kept = "same page";
    });
    const kept = () => page.evaluate(() => (window as Window & { kept?: string }).kept);
    const resolved = page.getByRole("tab", { name: "Resolved" });

    await resolved.click();
    await page.waitForURL(`${env.base}/tickets?tab=closed`);
    await page.locator("a.ticket-row", { hasText: "Rita Resolvida" }).click();
    await page.waitForURL(`${env.base}/tickets/${rita}?tab=closed`);
    await chatShows(page, "Rita Resolvida");
    await page.locator(".bubble", { hasText: "Oi, aqui é Rita Resolvida" }).waitFor();

    await page.locator("a.ticket-row", { hasText: "Raul Resolvido" }).click();
    await page.waitForURL(`${env.base}/tickets/${raul}?tab=closed`);
    await chatShows(page, "Raul Resolvido");
    await page.locator(".bubble", { hasText: "Oi, aqui é Raul Resolvido" }).waitFor();
    expect(await page.locator(".bubble", { hasText: "Rita" }).count()).toBe(0);
    expect(await kept()).toBe("same page");
    expect(await resolved.getAttribute("aria-selected")).toBe("true");
    expect(await page.locator('a.ticket-row[aria-current="page"]').textContent()).toContain("Raul Resolvido");

    await page.goBack();
    await page.waitForURL(`${env.base}/tickets/${rita}?tab=closed`);
    await chatShows(page, "Rita Resolvida");
    expect(await kept()).toBe("same page");
    expect(await resolved.getAttribute("aria-selected")).toBe("true");

    await page.goBack();
    await page.waitForURL(`${env.base}/tickets?tab=closed`);
    await page.locator(".chat-pane.welcome").waitFor();
    expect(await page.locator(".tickets-page.no-chat").count()).toBe(1);
    await page.goForward();
    await chatShows(page, "Rita Resolvida");
    expect(await page.locator(".tickets-page.has-chat").count()).toBe(1);
    expect(await kept()).toBe("same page");

    await page.reload();
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await chatShows(page, "Rita Resolvida");
    expect(await kept()).toBeUndefined();
    expect(await resolved.getAttribute("aria-selected")).toBe("true");
    expect(await page.locator('a.ticket-row[aria-current="page"]').textContent()).toContain("Rita Resolvida");
    await snapshot(page, "e2e-tickets-nav-resolved-1440");
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("at 375 px a ticket opens full screen and the back arrow returns to the same Resolved list, in place", async () => {
    const rosa = await seedTicket("Rosa Celular", "5511940000008", "closed", 3);
    const { context, page, errors } = await openPage(env.browser, { width: 375, height: 740 });
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.evaluate(() => {
      (window as Window & { kept?: string }).kept = "same page";
    });
    await page.getByRole("tab", { name: "Resolved" }).click();
    await page.locator("a.ticket-row", { hasText: "Rosa Celular" }).click();
    await page.waitForURL(`${env.base}/tickets/${rosa}?tab=closed`);
    await chatShows(page, "Rosa Celular");
    expect(await page.locator(".tickets-manager").isVisible()).toBe(false);

    await page.getByLabel("Back to tickets").click();
    await page.waitForURL(`${env.base}/tickets?tab=closed`);
    await page.locator(".tickets-manager").waitFor({ state: "visible" });
    expect(await page.locator(".chat").count()).toBe(0);
    expect(await page.getByRole("tab", { name: "Resolved" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => (window as Window & { kept?: string }).kept)).toBe("same page");
    await snapshot(page, "e2e-tickets-nav-back-375");
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("the search text stays while switching tickets and comes back after a reload", async () => {
    const sara = await seedTicket("Sara Busca", "5511940000003", "closed", 5, ["Quero trocar o pedido"]);
    await seedTicket("Sami Busca", "5511940000004", "closed", 6, ["Quero trocar o endereço"]);
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.getByRole("tab", { name: "Busca" }).click();
    await page.getByRole("searchbox").fill("trocar");
    await page.waitForURL(`${env.base}/tickets?tab=search&q=trocar`);
    await page.locator("a.ticket-row", { hasText: "Sara Busca" }).click();
    await page.waitForURL(`${env.base}/tickets/${sara}?tab=search&q=trocar`);
    await chatShows(page, "Sara Busca");
    expect(await page.getByRole("searchbox").inputValue()).toBe("trocar");
    expect(await page.locator("a.ticket-row", { hasText: "Sami Busca" }).count()).toBe(1);

    await page.reload();
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    expect(await page.getByRole("searchbox").inputValue()).toBe("trocar");
    await page.locator("a.ticket-row", { hasText: "Sami Busca" }).waitFor();
    await chatShows(page, "Sara Busca");
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("opening a ticket reads it but keeps its time and its place in the list", async () => {
    const nina = await seedTicket("Nina Recente", "5511940000005", "open", 1);
    const olga = await seedTicket("Olga Antiga", "5511940000006", "open", 2, ["Bom dia", "Alguém aí?"]);
    const before = (await ticketRow(olga)).updatedAt.getTime();
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    const olgaRow = page.locator(`li[data-ticket-id="${olga}"]`);
    expect(await olgaRow.locator(".unread").textContent()).toBe("2");
    const shownTime = await olgaRow.locator("time").textContent();

    await olgaRow.locator("a").click();
    await chatShows(page, "Olga Antiga");
    await page.locator(".bubble", { hasText: "Alguém aí?" }).waitFor();
    await olgaRow.locator(".unread").waitFor({ state: "detached" });
    expect(await ticketRow(olga)).toMatchObject({ unreadMessages: 0 });
    expect((await ticketRow(olga)).updatedAt.getTime()).toBe(before);
    expect(await olgaRow.locator("time").textContent()).toBe(shownTime);
    const order = await page.$$eval("li[data-ticket-id]", (els) => els.map((e) => Number(e.dataset.ticketId)));
    expect(order.indexOf(nina)).toBeLessThan(order.indexOf(olga));
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("the ticket on screen shows no unread badge when its customer writes; scrolled up, a pill takes the agent to it", async () => {
    const number = "5511940000007";
    const history = Array.from({ length: 40 }, (_, i) => `Mensagem ${i + 1}`);
    const paula = await seedTicket("Paula Presente", number, "open", 1, history);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${paula}`);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await chatShows(page, "Paula Presente");
    const row = page.locator(`li[data-ticket-id="${paula}"]`);

    await customerWrites(number, "Ainda está aí?");
    await page.locator(".bubble", { hasText: "Ainda está aí?" }).waitFor();
    await row.locator(".row-last", { hasText: "Ainda está aí?" }).waitFor();
    expect(await row.locator(".unread").count()).toBe(0);
    expect(await page.locator(".new-messages-pill").count()).toBe(0);
    // Another tab of the agent, showing the list only, sees the ticket read on the server too.
    const other = await context.newPage();
    other.on("pageerror", (e) => errors.push(String(e)));
    await other.goto(`${env.base}/tickets`);
    await other.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await other.locator(`li[data-ticket-id="${paula}"] .row-last`, { hasText: "Ainda está aí?" }).waitFor();
    await other.locator(`li[data-ticket-id="${paula}"] .unread`).waitFor({ state: "detached" });

    // Reading older messages: the list leaves the bottom (and loads the page before, keeping its place).
    await page.$eval(".messages", (el) => {
      el.scrollTop = 0;
    });
    await page.waitForFunction(() => {
      const el = document.querySelector(".messages")!;
      return el.scrollHeight - el.scrollTop - el.clientHeight > 200;
    });
    await customerWrites(number, "Alô?");
    const pill = page.getByRole("button", { name: "New messages ↓" });
    await pill.waitFor();
    expect(await row.locator(".unread").count()).toBe(0);
    await snapshot(page, "e2e-tickets-nav-pill-1440");
    await pill.click();
    await pill.waitFor({ state: "detached" });
    await page.waitForFunction(() => {
      const el = document.querySelector(".messages")!;
      return el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    });
    await other.locator(`li[data-ticket-id="${paula}"] .row-last`, { hasText: "Alô?" }).waitFor();
    await other.locator(`li[data-ticket-id="${paula}"] .unread`).waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("a message for the open ticket while the page is hidden keeps its badge until the page shows again", async () => {
    const number = "5511940000009";
    const hugo = await seedTicket("Hugo Ausente", number, "open", 1, ["Oi"]);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${hugo}`);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await chatShows(page, "Hugo Ausente");
    const setVisibility = (state: "hidden" | "visible") =>
      page.evaluate((value) => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => value });
        document.dispatchEvent(new Event("visibilitychange"));
      }, state);
    const badge = page.locator(`li[data-ticket-id="${hugo}"] .unread`);

    await setVisibility("hidden");
    await customerWrites(number, "Volto já");
    await page.locator(".bubble", { hasText: "Volto já" }).waitFor();
    await badge.waitFor();
    expect(await badge.textContent()).toBe("1");
    expect((await ticketRow(hugo)).unreadMessages).toBe(1);

    await setVisibility("visible");
    await badge.waitFor({ state: "detached" });
    const other = await context.newPage();
    await other.goto(`${env.base}/tickets`);
    await other.locator(`li[data-ticket-id="${hugo}"] .row-last`, { hasText: "Volto já" }).waitFor();
    await other.locator(`li[data-ticket-id="${hugo}"] .unread`).waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("scrolling the Resolved list to its end loads the next page after the last ticket shown, each ticket once", async () => {
    for (let i = 0; i < 50; i++)
      await seedTicket(`Lote ${i}`, `55119500${String(i).padStart(5, "0")}`, "closed", 200 + i);
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.getByRole("tab", { name: "Resolved" }).click();
    await page.locator("a.ticket-row", { hasText: "Lote 0" }).waitFor();
    const next = page.waitForRequest((r) => r.url().includes("/api/tickets?") && r.url().includes("pageNumber=2"));
    await page.locator("ul.ticket-list").evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const url = new URL((await next).url());
    expect(url.searchParams.get("beforeId")).toMatch(/^\d+$/);
    expect(url.searchParams.get("beforeUpdatedAt")).toMatch(/^\d+$/);
    await page.locator("a.ticket-row", { hasText: "Lote 49" }).waitFor();
    const names = await page.locator("a.ticket-row").allTextContents();
    const lots = names.map((n) => n.match(/Lote \d+/)?.[0]).filter(Boolean);
    expect(new Set(lots).size).toBe(50);
    expect(lots).toHaveLength(50);
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);
});
