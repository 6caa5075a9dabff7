import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addSandboxConnection, addTicket, addUser, bootE2E, logIn, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "ada@example.com", password: "secret-123", name: "Ada Admin" };
const AGENT = { email: "bruno@example.com", password: "secret-456", name: "Bruno Agent" };
let agentId: number;
let ticketId: number;

beforeAll(async () => {
  env = await bootE2E();
  const adminId = await addUser(env, ADMIN, "admin");
  agentId = await addUser(env, AGENT, "user");
  const whatsappId = await addSandboxConnection(env);
  ticketId = await addTicket(env, { name: "Carla", number: "5511988880000", whatsappId, userId: adminId });
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function open(page: Page, path: string, island: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector(`[data-island="${island}"][data-hydrated="true"]`);
}

describe("availability", () => {
  test("an agent choosing Away in the user menu (375 px, dark) shows as away in the admin's users list, dashboard and transfer dialog, live", async () => {
    const admin = await openPage(env.browser);
    await signIn(admin.page, env.base, ADMIN);
    await open(admin.page, "/users", "AdminUsers");
    const row = admin.page.locator(`tr[data-user-id="${agentId}"]`);
    await row.locator('[data-availability="offline"]', { hasText: "Offline" }).waitFor();

    const agent = await openPage(env.browser, { width: 375, height: 740, colorScheme: "dark" });
    await logIn(agent.page, env.base, AGENT);
    await agent.page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
    // The agent's socket brings them online, which the admin's list hears.
    await row.locator('[data-availability="online"]', { hasText: "Online" }).waitFor();

    await agent.page.locator(".appbar .avatar .availability-online").waitFor();
    await agent.page.getByRole("button", { name: "User menu" }).click();
    await snapshot(agent.page, "e2e-availability-menu-375-dark");
    await agent.page.getByRole("menuitemradio", { name: "Away" }).click();
    await agent.page.locator(".appbar .avatar .availability-away").waitFor();
    await row.locator('[data-availability="away"]', { hasText: "Away" }).waitFor();
    await snapshot(admin.page, "e2e-availability-users-1440");

    await open(admin.page, "/", "AgentDashboard");
    const team = admin.page.locator("section.team");
    await team.locator("text=Online now: 1").waitFor();
    await team.locator(`tr[data-user-id="${agentId}"] [data-availability="away"]`).waitFor();
    await snapshot(admin.page, "e2e-availability-dashboard-1440");
    await open(agent.page, "/", "AgentDashboard");
    await agent.page.locator("section.team").waitFor();
    await snapshot(agent.page, "e2e-availability-dashboard-375-dark");
    expect(await agent.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The transfer dialog lists the agent as away, and follows them back online.
    await open(admin.page, `/tickets/${ticketId}`, "Chat");
    await admin.page.getByRole("button", { name: "Transfer" }).click();
    const choice = admin.page.locator(`dialog label.transfer-user[data-user-id="${agentId}"]`);
    await choice.locator('[data-availability="away"]', { hasText: "Away" }).waitFor();
    await agent.page.getByRole("button", { name: "User menu" }).click();
    await agent.page.getByRole("menuitemradio", { name: "Online" }).click();
    await choice.locator('[data-availability="online"]', { hasText: "Online" }).waitFor();
    await snapshot(admin.page, "e2e-availability-transfer-1440");

    expect(admin.errors).toEqual([]);
    expect(agent.errors).toEqual([]);
    await admin.context.close();
    await agent.context.close();
  }, 30_000);
});
