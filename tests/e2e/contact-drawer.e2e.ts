import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { one } from "../../src/db/client";
import { contacts, messages, queues, tags, ticketTags, tickets, userQueues } from "../../src/db/tables";
import { addSandboxConnection, addUser, bootE2E, logIn, openPage, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "dina@example.com", password: "secret-123", name: "Dina Admin" };
const AGENT = { email: "ana@example.com", password: "secret-123", name: "Ana Agent" };
const HOUR = 3_600_000;
/** Rui's tickets: an old resolved one (rated, with a note and a tag) and the one open now, both Ana's in Sales. */
let resolved: number;
let open: number;

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADMIN, "admin");
  const agentId = await addUser(env, AGENT, "user");
  const whatsappId = await addSandboxConnection(env);
  const db = env.deps.db;
  const sales = await one(db.insert(queues).values({ name: "Sales", color: "#1e88e5" }).returning());
  await db.insert(userQueues).values({ userId: agentId, queueId: sales.id });
  const rui = await one(db.insert(contacts).values({ name: "Rui Recorrente", number: "5511966660001" }).returning());
  const ticket = async (values: Partial<typeof tickets.$inferInsert>, hoursAgo: number) =>
    (
      await one(
        db
          .insert(tickets)
          .values({
            contactId: rui.id,
            whatsappId,
            queueId: sales.id,
            userId: agentId,
            status: "closed",
            updatedAt: new Date(Date.now() - hoursAgo * HOUR),
            ...values,
          })
          .returning(),
      )
    ).id;
  resolved = await ticket({ csatRating: 5, csatAnsweredAt: new Date(Date.now() - 47 * HOUR) }, 48);
  // Active now, so the drawer shows its time of day: an hour ago is yesterday in the first hour of a day.
  open = await ticket({ status: "open", lastMessage: "Oi de novo" }, 0);
  const vip = await one(db.insert(tags).values({ name: "VIP", color: "#f5c542" }).returning());
  await db.insert(ticketTags).values({ ticketId: resolved, tagId: vip.id });
  await db.insert(messages).values([
    { wid: "rui-1", whatsappId, ticketId: resolved, contactId: rui.id, body: "Quero trocar o pedido" },
    {
      wid: "rui-note",
      whatsappId,
      ticketId: resolved,
      contactId: rui.id,
      body: "troca aprovada",
      fromMe: true,
      isPrivate: true,
    },
    { wid: "rui-2", whatsappId, ticketId: open, contactId: rui.id, body: "Oi de novo" },
  ]);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function openDrawerOf(page: Page, ticketId: number) {
  await page.goto(`${env.base}/tickets/${ticketId}`);
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
  await page.evaluate(() => {
    (window as Window & { kept?: boolean }).kept = true;
  });
  await page.getByRole("button", { name: /Contact details of Rui Recorrente/ }).click();
  const drawer = page.getByRole("dialog", { name: "Contact details" });
  await drawer.locator(".contact-tickets li").nth(1).waitFor();
  return drawer;
}

const samePage = (page: Page) => page.evaluate(() => (window as Window & { kept?: boolean }).kept === true);

describe("contact drawer", () => {
  test("lists the contact's tickets with status, queue, agent, date and rating, the tags, notes and opt-out state; a ticket opens in place", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, AGENT);
    const drawer = await openDrawerOf(page, resolved);
    const rows = drawer.locator(".contact-tickets li");
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`#${open}\\s+In service\\s+\\d\\d:\\d\\d\\s+Sales · Ana Agent`)),
      expect.stringMatching(
        new RegExp(
          `#${resolved}\\s+Resolved\\s+\\d\\d/\\d\\d/\\d{4}\\s+Sales · Ana Agent\\s+⭐ Rating 5/5 · 1 private note`,
        ),
      ),
    ]);
    expect(await rows.nth(1).locator("a").getAttribute("aria-current")).toBe("page");
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, with breaks between the fields, is what is read
    expect(await drawer.locator(".contact-summary").innerText()).toMatch(/Tags\s+VIP\s+Private notes\s+1 private note/);
    await drawer.getByText("Receives bulk messages on every connection.").waitFor();
    await rows.first().locator("a").click();
    await page.waitForURL(`${env.base}/tickets/${open}`);
    await page.locator(".chat-title", { hasText: `#${open}` }).waitFor();
    expect(await samePage(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("Start ticket on a contact with an open ticket opens that ticket, from the drawer and from the contacts page", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, AGENT);
    const drawer = await openDrawerOf(page, resolved);
    await drawer.getByRole("button", { name: "Start ticket" }).click();
    await page.waitForURL(`${env.base}/tickets/${open}`);
    await page
      .locator(".toast", { hasText: `This contact already has an open ticket: #${open} is open now.` })
      .waitFor();
    expect(await samePage(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();

    const admin = await openPage(env.browser);
    await signIn(admin.page, env.base, ADMIN);
    await admin.page.goto(`${env.base}/contacts`);
    await admin.page.waitForSelector('[data-island="AgentContacts"][data-hydrated="true"]');
    await admin.page.getByRole("button", { name: "Start ticket with Rui Recorrente" }).click();
    await admin.page.waitForURL(`${env.base}/tickets/${open}`);
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  });
});
