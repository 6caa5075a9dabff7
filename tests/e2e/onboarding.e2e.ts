import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addUser, bootE2E, logIn, openPage } from "./boot";

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
    await logIn(page, env.base, ADMIN);
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
    await logIn(page, env.base, AGENT);
    await page.goto(`${env.base}/`);
    await page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    expect(await page.locator(".onboarding").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
