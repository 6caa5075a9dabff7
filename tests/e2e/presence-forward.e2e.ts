import { one } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Locator } from "playwright-core";
import { contacts, tickets } from "../../src/db/tables";
import type { ChatPresence } from "../../src/shared/contracts/presence";
import { waitFor } from "../wait-for";
import { addSandboxConnection, addUser, bootE2E, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "pia@example.com", password: "secret-123", name: "Pia Agent" };
const CUSTOMER = "5511944443333";
const TARGET = "5511922221111";

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** The customer writes in through the sandbox; their ticket is the admin's, open. */
async function customerTicket() {
  await env.sandbox.inbound(whatsappId, { from: CUSTOMER, name: "Ana Cliente", body: "Oi, tudo bem?" });
  const contact = await one(env.deps.db.select().from(contacts).where(eq(contacts.number, CUSTOMER)));
  return (
    await one(
      env.deps.db
        .update(tickets)
        .set({ status: "open", userId: adminId })
        .where(eq(tickets.contactId, contact.id))
        .returning(),
    )
  ).id;
}

/** Plays the customer's presence until the chat shows `text` (the chat joins its room once it is open). */
async function customerShows(state: ChatPresence, presence: Locator, text: string) {
  for (let attempt = 0; ; attempt++) {
    await env.sandbox.presence(whatsappId, { from: CUSTOMER, state });
    try {
      await presence.filter({ hasText: text }).waitFor({ timeout: 1000 });
      return;
    } catch (error) {
      if (attempt >= 10) throw error;
    }
  }
}

const outbox = (to: string) => env.sandbox.outbox(whatsappId, to);

describe("presence, forward and react", () => {
  test("presence both ways through the sandbox, then react to the customer's message, take it back, and forward it", async () => {
    const ticketId = await customerTicket();
    await env.deps.db.insert(contacts).values({ name: "Bruno Destino", number: TARGET });
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const bubble = page.locator(".bubble", { hasText: "Oi, tudo bem?" });
    await bubble.waitFor();

    // The customer types, records, stops: the header says so.
    const presence = page.locator(".chat-header .chat-presence");
    await customerShows("composing", presence, "typing…");
    await snapshot(page, "presence-typing");
    await customerShows("recording", presence, "recording audio…");
    await customerShows("paused", presence, "online");

    // The agent types: the customer's phone shows it, until the message is sent.
    await page.getByRole("textbox", { name: "Type a message" }).fill("Estou verificando");
    await waitFor(async () => (await env.sandbox.presenceShown(whatsappId, CUSTOMER)) === "composing");
    await page.keyboard.press("Enter");
    await waitFor(async () => (await outbox(CUSTOMER)).some((m) => m.body === "Estou verificando"));
    await waitFor(async () => (await env.sandbox.presenceShown(whatsappId, CUSTOMER)) === "paused");

    // React with 👍, shown on the bubble and sent to the phone; then take it back.
    await bubble.hover();
    await bubble.getByRole("button", { name: "React" }).click();
    await snapshot(page, "react-menu");
    await bubble.getByRole("menuitemradio", { name: "👍" }).click();
    await bubble.locator(".reactions", { hasText: "👍" }).waitFor();
    await bubble.getByRole("button", { name: "React" }).click();
    await bubble.getByRole("menuitem", { name: "Remove reaction" }).click();
    await bubble.locator(".reactions").waitFor({ state: "detached" });
    const reactions = (await outbox(CUSTOMER)).filter((m) => m.mediaType === "reaction").map((m) => m.body);
    expect(reactions).toEqual(["👍", ""]);

    // Forward the customer's message and the agent's reply, picked together, to another contact found by search.
    await bubble.hover();
    await bubble.getByRole("button", { name: "Forward" }).click();
    const bar = page.getByRole("toolbar", { name: "Forward message" });
    await bar.getByText("Selected: 1").waitFor();
    await page
      .locator(".bubble", { hasText: "Estou verificando" })
      .getByRole("checkbox", { name: "Select to forward" })
      .check();
    await bar.getByText("Selected: 2").waitFor();
    await bar.getByRole("button", { name: "Forward…" }).click();
    const dialog = page.getByRole("dialog", { name: "Forward message" });
    await dialog.getByRole("combobox", { name: "Forward to" }).fill("Bruno");
    await dialog.getByRole("option", { name: /Bruno Destino/ }).click();
    await dialog.getByRole("list", { name: "Chosen contacts" }).getByText("Bruno Destino").waitFor();
    await snapshot(page, "forward-dialog");
    await dialog.getByRole("button", { name: "Forward", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await bar.waitFor({ state: "detached" });
    const forwarded = await waitFor(async () => {
      const bodies = (await outbox(TARGET)).map((m) => m.body);
      return bodies.length === 2 && bodies;
    });
    expect(forwarded).toEqual(["Oi, tudo bem?", "Estou verificando"]);

    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
