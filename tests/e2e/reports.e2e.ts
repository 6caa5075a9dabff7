import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { queues } from "../../src/db/tables";
import { recordTicketEvents, type TicketChange } from "../../src/modules/tickets/history";
import type { ReportedKind } from "../../src/modules/tickets/report-events";
import { addSandboxConnection, addTicket, addUser, bootE2E, logIn, openPage, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "ada@example.com", password: "secret-123", name: "Ada Admin" };
const AGENT = { email: "bruno@example.com", password: "secret-456", name: "Bruno Agent" };
let agentId: number;

/** Two tickets answered and resolved an hour ago: one by the agent in Sales, one by the admin without a queue. */
beforeAll(async () => {
  env = await bootE2E();
  const adminId = await addUser(env, ADMIN, "admin");
  agentId = await addUser(env, AGENT, "user");
  const whatsappId = await addSandboxConnection(env);
  const [sales] = await env.deps.db.insert(queues).values({ name: "Sales", color: "#1e88e5" }).returning();
  const changes: TicketChange[] = [];
  for (const [userId, queueId, n] of [
    [agentId, sales!.id, 0],
    [adminId, null, 1],
  ] as const) {
    const ticketId = await addTicket(env, { name: `C${n}`, number: `55119888800${n}`, whatsappId, userId });
    const at = Date.now() - 3_600_000;
    const event = (kind: ReportedKind, offset: number, value: number | null = null): TicketChange => ({
      ticketId,
      kind,
      cause: "agent",
      at: new Date(at + offset),
      actorUserId: userId,
      before: null,
      after: { status: "open", userId, queueId, whatsappId },
      value,
    });
    changes.push(event("created", 0), event("first_response", 90_000, 90_000), event("resolved", 600_000, 600_000));
  }
  await recordTicketEvents(env.deps.db, changes);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function openReports(page: Page) {
  await page.goto(`${env.base}/reports`);
  await page.waitForSelector('[data-island="AgentReports"][data-hydrated="true"]');
}

describe("/reports", () => {
  test("an admin sees every agent's and queue's figures, the charts and the heatmap, in English and Portuguese at 375 px (dark)", async () => {
    const admin = await openPage(env.browser);
    await logIn(admin.page, env.base, ADMIN);
    await openReports(admin.page);
    await admin.page.getByRole("heading", { name: "Reports" }).waitFor();
    const agentRow = admin.page.locator(`tr[data-id="${agentId}"]`).first();
    await agentRow.locator('[data-figure="firstResponseMedianSeconds"]', { hasText: "1m 30s" }).waitFor();
    await agentRow.locator('[data-figure="resolutionMedianSeconds"]', { hasText: "10m 00s" }).waitFor();
    await admin.page.getByText("Tickets created by weekday and hour").waitFor();
    await snapshot(admin.page, "e2e-reports-1440");

    // Only the agent's figures once the agent filter is applied.
    await admin.page.getByLabel("Agent").selectOption(String(agentId));
    await admin.page.getByRole("button", { name: "Apply" }).click();
    await admin.page.locator("tfoot td", { hasText: "1m 30s" }).first().waitFor();
    // The footer may read the same before the filtered answer lands: wait for the other agents' rows to go.
    const rows = admin.page.locator("section.report-table").first().locator("tbody tr");
    await rows.nth(1).waitFor({ state: "detached" });
    expect(await rows.count()).toBe(1);
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    const pt = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 740, colorScheme: "dark" });
    await logIn(pt.page, env.base, ADMIN);
    await openReports(pt.page);
    await pt.page.getByRole("heading", { name: "Relatórios" }).waitFor();
    await pt.page.getByText("Por atendente").waitFor();
    await pt.page.getByRole("link", { name: "Baixar CSV" }).waitFor();
    await snapshot(pt.page, "e2e-reports-375-pt-dark");
    // The tables scroll inside their frame; the page itself does not.
    expect(await pt.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(pt.errors).toEqual([]);
    await pt.context.close();
  }, 30_000);

  test("an agent sees only their own line and downloads it as CSV", async () => {
    const agent = await openPage(env.browser, { width: 375, height: 740 });
    await logIn(agent.page, env.base, AGENT);
    await openReports(agent.page);
    const rows = agent.page.locator("section.report-table").first().locator("tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute("data-id")).toBe(String(agentId));
    expect(await agent.page.getByLabel("Agent").count()).toBe(0);
    const [download] = await Promise.all([
      agent.page.waitForEvent("download"),
      agent.page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const csv = await Bun.file((await download.path())!).text();
    expect(csv.split("\r\n")[1]).toStartWith(`agent,${agentId},Bruno Agent,1,1,0,90,90,600,600,`);
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  }, 30_000);
});
