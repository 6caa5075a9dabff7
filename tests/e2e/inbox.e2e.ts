import { one } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connections } from "../../src/db/tables";
import { hashPassword } from "../../src/modules/auth/passwords";
import { insertUser } from "../../src/modules/users/service";
import { bootE2E, openPage, snapshot, logIn, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminToken: string;
const ADMIN = { email: "ana@example.com", password: "secret-123", name: "Ana Admin" };

async function apiCall(method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

beforeAll(async () => {
  env = await bootE2E();
  await insertUser(env.deps.db, {
    name: ADMIN.name,
    email: ADMIN.email,
    passwordHash: await hashPassword(ADMIN.password, env.deps.config.passwordHashing),
    profile: "admin",
  });
  const row = await one(
    env.deps.db.insert(connections).values({ name: "Sandbox", provider: "sandbox", isDefault: true }).returning(),
  );
  whatsappId = row.id;
  await env.deps.channels.start(whatsappId);
  await env.sandbox.scan(whatsappId);
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  adminToken = ((await login.json()) as { token: string }).token;
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

describe("inbox in the browser", () => {
  test("an inbound message appears live in pending; accept, reply and watch the ticks", async () => {
    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.click('role=tab[name="Waiting"]');
    await page.waitForSelector('.ticket-list[aria-busy="false"]');

    await apiCall("POST", `/sandbox/${whatsappId}/inbound`, {
      from: "5511988887777",
      name: "Carlos Cliente",
      body: "Olá, *preciso* de ajuda <b>x</b>",
    });
    const row = page.locator(".ticket-row.pending", { hasText: "Carlos Cliente" });
    await row.waitFor();
    expect(await row.textContent()).toContain("<b>x</b>");
    expect(await page.textContent("role=tab[name=/Waiting/]")).toContain("1");
    await snapshot(page, "e2e-pending-1440");

    await row.getByRole("button", { name: "Accept" }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const inbound = page.locator(".bubble.them").first();
    await inbound.waitFor();
    expect(await inbound.locator("strong").textContent()).toBe("preciso");
    expect(await inbound.locator("b").count()).toBe(0);

    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.fill("Claro! Como posso ajudar?");
    await input.press("Enter");
    const mine = page.locator(".bubble.me", { hasText: "Claro! Como posso ajudar?" });
    await mine.waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector(".bubble.me .ack")?.getAttribute("title") === "Delivered" ||
        document.querySelector(".bubble.me .ack")?.getAttribute("title") === "Read",
      null,
      { timeout: 10_000 },
    );
    await apiCall("POST", `/sandbox/${whatsappId}/read`, { to: "5511988887777" });
    await page.waitForSelector(".bubble.me .ack.read");
    await snapshot(page, "e2e-chat-1440");
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("at 375 px a chat page shows the chat and the list page shows the list", async () => {
    const { context, page, errors } = await openPage(env.browser, { width: 375, height: 740, locale: "es-ES" });
    await logIn(page, env.base, ADMIN);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    expect(await page.locator(".tickets-manager").isVisible()).toBe(true);
    const link = page.locator("a.ticket-row").first();
    await link.waitFor();
    await link.click();
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    expect(await page.locator(".tickets-manager").isVisible()).toBe(false);
    expect(await page.locator(".chat").isVisible()).toBe(true);
    await page.locator(".bubble").first().waitFor();
    await snapshot(page, "e2e-chat-375");
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("the sandbox page plays the customer: its message opens a ticket and the agent's reply reaches the phone, formatted and with its ticks", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/sandbox`);
    await page.waitForSelector('[data-island="SandboxPhone"][data-hydrated="true"]');
    await page.waitForSelector("#sb-connection option:has-text('Sandbox')", { state: "attached" });
    await page.fill("#sb-phone", "5511966665555");
    await page.fill("#sb-name", "Dora Demo");
    const phoneInput = page.getByRole("textbox", { name: "Message from the customer" });
    await phoneInput.fill("Bom dia!");
    await phoneInput.press("Enter");
    await page.locator(".phone .bubble.me", { hasText: "Bom dia!" }).waitFor();

    const agent = await context.newPage();
    agent.on("pageerror", (e) => errors.push(String(e)));
    await agent.goto(`${env.base}/tickets`);
    await agent.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await agent.click("role=tab[name=/Waiting/]");
    const row = agent.locator(".ticket-row.pending", { hasText: "Dora Demo" });
    await row.waitFor();
    await row.getByRole("button", { name: "Accept" }).click();
    await agent.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const input = agent.getByRole("textbox", { name: "Type a message" });
    await input.fill("Bom dia, *Dora*!");
    await input.press("Enter");
    await agent.locator(".bubble.me", { hasText: "Bom dia, Dora!" }).waitFor();

    // The phone shows WhatsApp's formatting and the reply's ticks, not the raw asterisks or an ack number.
    const reply = page.locator(".phone .bubble.them", { hasText: "Bom dia, Dora!" });
    await reply.waitFor({ timeout: 10_000 });
    expect(await reply.locator("strong").textContent()).toBe("Dora");
    await reply.locator(".ack svg").waitFor();
    expect(await reply.textContent()).not.toContain("ack");
    await snapshot(page, "e2e-sandbox-1440");
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);

  test("a customer shown only by a LID chats under their push name with 'number unknown', until the number is told", async () => {
    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/sandbox`);
    await page.waitForSelector('[data-island="SandboxPhone"][data-hydrated="true"]');
    await page.waitForSelector("#sb-connection option:has-text('Sandbox')", { state: "attached" });
    await page.fill("#sb-phone", "5511955554444");
    await page.fill("#sb-name", "Lia Lid");
    await page.fill("#sb-lid", "123456789012345");
    await page.getByLabel("Show WhatsApp only the LID (hide the number)").check();
    await page.locator(".phone-header", { hasText: "lid:123456789012345" }).waitFor();
    const phoneInput = page.getByRole("textbox", { name: "Message from the customer" });
    await phoneInput.fill("Oi pelo LID");
    await phoneInput.press("Enter");
    await page.locator(".phone .bubble.me", { hasText: "Oi pelo LID" }).waitFor();

    const agent = await context.newPage();
    agent.on("pageerror", (e) => errors.push(String(e)));
    await agent.goto(`${env.base}/tickets`);
    await agent.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await agent.click("role=tab[name=/Waiting/]");
    const row = agent.locator(".ticket-row.pending", { hasText: "Lia Lid" });
    await row.getByRole("button", { name: "Accept" }).click();
    await agent.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const input = agent.getByRole("textbox", { name: "Type a message" });
    await input.fill("Olá, Lia!");
    await input.press("Enter");
    await agent.locator(".bubble.me", { hasText: "Olá, Lia!" }).waitFor();
    await page.locator(".phone .bubble.them", { hasText: "Olá, Lia!" }).waitFor({ timeout: 10_000 });
    await agent
      .getByRole("button", { name: /Lia Lid/ })
      .first()
      .click();
    const drawer = agent.locator("dialog.side-drawer");
    await drawer.locator(".number-unknown", { hasText: "number unknown" }).waitFor();
    await snapshot(agent, "e2e-lid-contact-1440");
    // Editing the contact keeps it without a number until one is typed.
    await drawer.getByRole("button", { name: "Edit contact" }).click();
    const edit = agent.locator("dialog.modal", { hasText: "Edit contact" });
    await edit.locator('#contact-number[placeholder="number unknown"]').waitFor();
    await edit.getByLabel("Name", { exact: true }).fill("Lia Lid");
    await edit.getByRole("button", { name: "Save" }).click();
    await agent.waitForSelector("text=Contact saved.");

    await page.getByRole("button", { name: "Tell the inbox this LID's number" }).click();
    await page.waitForSelector("text=The connection now knows the number of this LID.");
    await agent.goto(`${env.base}/contacts`);
    await agent.locator("tr", { hasText: "Lia Lid" }).locator("td", { hasText: "5511955554444" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);
});
