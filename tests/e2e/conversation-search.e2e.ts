import { one } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { contacts, messages, tickets } from "../../src/db/tables";
import { addSandboxConnection, addUser, bootE2E, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "lia@example.com", password: "secret-123", name: "Lia Agent" };

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/**
 * An open ticket of the admin with 50 messages a minute apart (three pages of history): the oldest and the
 * newest mention the tracking code, the others are small talk.
 */
async function seedLongChat(number: string) {
  const db = env.deps.db;
  const contactId = (await one(db.insert(contacts).values({ name: "Rui Rastreio", number }).returning())).id;
  const ticketId = (
    await one(db.insert(tickets).values({ status: "open", contactId, whatsappId, userId: adminId }).returning())
  ).id;
  const start = Date.UTC(2026, 0, 5, 9, 0);
  for (let i = 0; i < 50; i++) {
    const body = i === 0 ? "Qual o código de rastreio antigo?" : i === 49 ? "Rastreio novo: BR123" : `Conversa ${i}`;
    await db.insert(messages).values({
      wid: `m-${number}-${i}`,
      whatsappId,
      ticketId,
      contactId,
      body,
      createdAt: new Date(start + i * 60_000),
    });
  }
  return ticketId;
}

describe("conversation search and emoji", () => {
  test("searching the conversation finds a message on an older page, jumps to it and highlights it; Esc closes", async () => {
    const ticketId = await seedLongChat("5511944443333");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble", { hasText: "Rastreio novo" }).waitFor();
    expect(await page.locator(".bubble", { hasText: "código de rastreio antigo" }).count()).toBe(0);

    await page.locator(".chat-actions button", { hasText: "Pesquisar" }).click();
    const input = page.getByRole("searchbox", { name: "Pesquisar nesta conversa" });
    await input.fill("rastreio");
    const count = page.locator(".chat-search-count");
    await count.filter({ hasText: "2 de 2" }).waitFor();
    await page.locator(".bubble.search-hit", { hasText: "Rastreio novo" }).waitFor();

    await input.press("Enter");
    await count.filter({ hasText: "1 de 2" }).waitFor();
    const hit = page.locator(".bubble.search-hit", { hasText: "código de rastreio antigo" });
    await hit.waitFor();
    expect(await page.locator(".bubble.search-hit").count()).toBe(1);
    // The hit is scrolled into the list's visible area.
    const list = (await page.locator(".messages").boundingBox())!;
    const box = (await hit.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(list.y);
    expect(box.y + box.height).toBeLessThanOrEqual(list.y + list.height);
    await snapshot(page, "conversation-search");

    await input.press("Shift+Enter");
    await count.filter({ hasText: "2 de 2" }).waitFor();
    await page.locator(".bubble.search-hit", { hasText: "Rastreio novo" }).waitFor();

    await input.press("Escape");
    await page.locator(".chat-search").waitFor({ state: "detached" });
    expect(await page.locator(".bubble.search-hit").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the emoji picker puts the chosen emoji where the caret is, offers recent ones, categories and a search by name, and Esc closes it", async () => {
    const ticketId = await seedLongChat("5511933332222");
    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const box = page.locator(".composer textarea");
    await box.fill("Hi there");
    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(3, 3));

    await page.getByRole("button", { name: "Emoji" }).click();
    const grid = page.getByRole("dialog", { name: "Choose an emoji" });
    await grid.waitFor();
    await snapshot(page, "emoji-picker");
    expect(await grid.getByRole("tab", { name: "Smileys" }).getAttribute("aria-selected")).toBe("true");
    await grid.getByRole("tab", { name: "People and hands" }).click();
    await grid.getByRole("button", { name: "👍" }).click();
    expect(await box.inputValue()).toBe("Hi 👍there");
    await grid.waitFor({ state: "detached" });
    // The caret stays after the emoji, so typing goes on from there.
    await page.keyboard.type("!");
    expect(await box.inputValue()).toBe("Hi 👍!there");

    // Reopened: the recently used first; the categories as tabs; the search finds names in any of the languages.
    await page.getByRole("button", { name: "Emoji" }).click();
    await grid.waitFor();
    expect(await grid.getByRole("tab", { name: "Recently used" }).getAttribute("aria-selected")).toBe("true");
    expect(await grid.locator(".emoji-grid button").allTextContents()).toEqual(["👍"]);
    const search = grid.getByRole("searchbox", { name: "Search emoji" });
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await grid.getByRole("tab", { name: "Food and drink" }).click();
    await grid.getByRole("button", { name: "🍕" }).waitFor();
    await search.fill("coração");
    await grid.getByRole("button", { name: "❤️" }).waitFor();
    expect(await grid.getByRole("tab").count()).toBe(0);
    expect(await grid.evaluate((el) => getComputedStyle(el.querySelector(".emoji-grid button")!).fontFamily)).toContain(
      "Noto Color Emoji",
    );
    await search.fill("xyzzy");
    await grid.getByText("No emoji found").waitFor();
    await page.keyboard.press("Escape");
    await grid.waitFor({ state: "detached" });
    expect(await box.inputValue()).toBe("Hi 👍!there");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("at 375 px the search opens from the overflow menu without widening the page, and the composer keeps the emoji button inside its field, as WhatsApp does", async () => {
    const ticketId = await seedLongChat("5511922221111");
    const { context, page, errors } = await openPage(env.browser, { locale: "es-ES", width: 375, height: 740 });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

    await page.getByRole("button", { name: "Más acciones" }).click();
    await page.getByRole("menuitem", { name: "Buscar" }).click();
    const input = page.getByRole("searchbox", { name: "Buscar en esta conversación" });
    await input.fill("rastreio");
    await page.locator(".chat-search-count", { hasText: "2 de 2" }).waitFor();
    await page.locator(".bubble.search-hit", { hasText: "Rastreio novo" }).waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(375);
    await snapshot(page, "conversation-search-375");
    await input.press("Escape");

    await page.locator(".chat-search").waitFor({ state: "detached" });
    expect(await page.locator(".composer-field").getByRole("button", { name: "Emoji" }).isVisible()).toBe(true);
    expect(await pageWidth()).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await context.close();
  });
});
