import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addSandboxConnection, addUser, bootE2E, openPage, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "olivia@example.com", password: "secret-123", name: "Olivia Owner" };
const AGENT = { email: "caio@example.com", password: "secret-456", name: "Caio Agent" };

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

describe("first run", () => {
  test("an admin sees the checklist on the dashboard, its steps tick live as they are done, and Hide puts it away", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/`);
    await page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    const card = page.locator(".onboarding");
    await card.waitFor();
    expect(await card.locator("li").count()).toBe(4);
    expect(await card.locator("li.done").count()).toBe(0);

    // The admin invites an agent from another tab: the step ticks without a reload.
    const login = await fetch(`${env.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "127.0.0.31" },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    const { token } = (await login.json()) as { token: string };
    const created = await fetch(`${env.base}/api/users`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...AGENT, profile: "user" }),
    });
    expect(created.status).toBe(200);
    await card.locator("li.done", { hasText: "Invite agents" }).waitFor();
    expect(await card.getByRole("link", { name: "Create queues" }).getAttribute("href")).toBe("/Queues");

    await card.getByRole("button", { name: "Hide" }).click();
    await card.waitFor({ state: "detached" });
    await page.reload();
    await page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    expect(await page.locator(".onboarding").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("an agent's dashboard has no checklist", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, AGENT);
    await page.goto(`${env.base}/`);
    await page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    expect(await page.locator(".onboarding").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the README's walkthrough without a phone: a connected sandbox ticks the number, the first ticket is in view, and Bulk and Import say what the sandbox allows", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await open(page, "/", "AgentDashboard");
    const card = page.locator(".onboarding");
    await card.waitFor();
    const whatsappId = await addSandboxConnection(env);
    await card.locator("li.done", { hasText: "Connect a WhatsApp number" }).waitFor();
    await card.locator("li.done", { hasText: "Try the sandbox" }).waitFor();

    // The customer writes; with nothing in service the list opens on Waiting, and the address stays plain.
    await env.sandbox.inbound(whatsappId, { from: "5511987650001", name: "Primeira Cliente", body: "Oi" });
    await open(page, "/tickets", "TicketsManager");
    expect(await page.getByRole("tab", { name: "Waiting" }).getAttribute("aria-selected")).toBe("true");
    await page.locator(".ticket-row", { hasText: "Primeira Cliente" }).waitFor();
    await page.getByRole("tab", { name: "In service" }).click();
    await page.waitForURL(`${env.base}/tickets?sub=open`);

    // The single connection is the default one, which campaigns do not use: the picker says so.
    await open(page, "/BulkMessage", "BulkMessage");
    const note = page.locator(".bulk-no-connection");
    await note.waitFor();
    expect(await note.getByRole("link", { name: "Add a connection in Connections" }).getAttribute("href")).toBe(
      "/connections",
    );

    await open(page, "/contacts", "AgentContacts");
    await page.getByRole("button", { name: "Import contacts" }).click();
    await page.locator(".toast", { hasText: "A sandbox connection has no phone book to import" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});

async function open(page: Page, path: string, island: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector(`[data-island="${island}"][data-hydrated="true"]`);
}
