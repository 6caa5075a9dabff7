import { first as firstRow } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { and, eq } from "drizzle-orm";
import { messages } from "../../src/db/tables";
import { cancelUnsent } from "../../src/modules/messages/outbox";
import { bootE2E, openPage, addUser, addSandboxConnection, addTicket, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "olga@example.com", password: "secret-123", name: "Olga Outbox" };

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  env?.sandbox.network.cancelAll();
  await env?.stop();
});

async function openTicket(number: string, name: string) {
  return await addTicket(env, { name, number, whatsappId, userId: adminId });
}

async function openChat(page: Page, ticketId: number) {
  await signIn(page, env.base, ADMIN);
  await page.goto(`${env.base}/tickets/${ticketId}`);
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
}

async function write(page: Page, text: string) {
  const input = page.getByRole("textbox", { name: "Type a message" });
  await input.fill(text);
  await input.press("Enter");
}

const sentRow = async (ticketId: number, body: string) =>
  (await firstRow(
    env.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.body, body))),
  ))!;

describe("outbound in the chat", () => {
  test("a message written while the connection is down shows the clock, then the tick once the connection is back", async () => {
    const ticketId = await openTicket("5511966665555", "Rita Fila");
    const { context, page, errors } = await openPage(env.browser);
    await openChat(page, ticketId);
    await env.deps.channels.stop(whatsappId);

    await write(page, "Chegou?");
    const bubble = page.locator(".bubble.me", { hasText: "Chegou?" });
    await bubble.locator('.ack[title="Waiting for the connection to send"]').waitFor();
    expect(await env.sandbox.network.outbox(whatsappId)).toHaveLength(0);

    await env.deps.channels.start(whatsappId);
    await env.deps.outbox.idle(whatsappId);
    await env.sandbox.network.settle();
    await bubble.locator('.ack[title="Delivered"]').waitFor();
    expect((await env.sandbox.network.outbox(whatsappId)).map((m) => m.body)).toContain("Chegou?");
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("a message WhatsApp rejects shows the red mark with its reason and a button that sends it again", async () => {
    const ticketId = await openTicket("5511977778888", "Saulo Recusa");
    const { context, page, errors } = await openPage(env.browser);
    await openChat(page, ticketId);

    await write(page, "Recusada");
    const bubble = page.locator(".bubble.me", { hasText: "Recusada" });
    await bubble.locator(".ack").waitFor();
    await env.deps.outbox.idle(whatsappId);
    const first = await sentRow(ticketId, "Recusada");
    expect(await env.sandbox.reject(whatsappId, first.wid)).toBe(true);

    const mark = bubble.getByRole("img", { name: "Not sent: WhatsApp rejected this message." });
    await mark.waitFor();
    expect(await mark.getAttribute("title")).toBe("Not sent: WhatsApp rejected this message.");
    await bubble.getByRole("button", { name: "Send again" }).click();
    await bubble.locator(".ack.failed").waitFor({ state: "detached" });
    const again = await sentRow(ticketId, "Recusada");
    expect(again.wid).not.toBe(first.wid);
    expect((await env.sandbox.network.outbox(whatsappId)).map((m) => m.wid)).toContain(again.wid);
    await env.sandbox.network.settle();
    await bubble.locator('.ack[title="Delivered"]').waitFor();
    expect(await bubble.getByRole("button", { name: "Send again" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("a waiting message cancelled before it was sent leaves the chat", async () => {
    const ticketId = await openTicket("5511944442222", "Tina Cancela");
    const { context, page, errors } = await openPage(env.browser);
    await openChat(page, ticketId);
    await env.deps.channels.stop(whatsappId);
    await write(page, "Esquece");
    const bubble = page.locator(".bubble.me", { hasText: "Esquece" });
    await bubble.locator('.ack[title="Waiting for the connection to send"]').waitFor();
    expect(await cancelUnsent(env.deps, (await sentRow(ticketId, "Esquece")).id)).toBe(true);
    await bubble.waitFor({ state: "detached" });
    await env.deps.channels.start(whatsappId);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});
