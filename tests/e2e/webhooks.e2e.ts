import { one } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { connections } from "../../src/db/tables";
import { getSetting } from "../../src/modules/settings/service";
import { webhookEventsRecorded } from "../../src/modules/webhooks/observe";
import { bootE2E, openPage, addUser, logIn as logInAs, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "hook@example.com", password: "secret-123", name: "Hook Admin" };
const received: string[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    received.push(await req.text());
    return new Response("no", { status: 500 });
  },
});

beforeAll(async () => {
  // The receiver listens on this machine, where webhooks may go only when allowed.
  env = await bootE2E({ webhookAllowPrivate: true });
  await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  receiver.stop(true);
  await env?.stop();
});

function logIn(page: Page) {
  return logInAs(page, env.base, ADMIN);
}

describe("webhooks screen", () => {
  test("an admin adds a webhook from the drawer, refuses a non-http URL, and sees a failed delivery with its answer in the log", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page);
    await page.click('#drawer a[href="/webhooks"]');
    await page.waitForSelector('[data-island="AdminWebhooks"][data-hydrated="true"]');

    await page.click("text=Add webhook");
    const modal = page.locator("dialog.admin-modal");
    await modal.getByLabel("URL").fill("ftp://example.com/hook");
    await modal.getByRole("button", { name: "Save" }).click();
    await modal.locator(".field-error").waitFor();
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    await modal.getByLabel("URL").fill(url);
    await modal.getByLabel("Ticket status changed").uncheck();
    await modal.getByRole("button", { name: "Save" }).click();
    const row = page.locator('[data-testid="webhook-endpoints"] tr[data-webhook-id]');
    await row.filter({ hasText: url }).waitFor();
    expect(await row.locator(".webhook-secret").textContent()).toStartWith("whsec_");
    expect(await row.textContent()).not.toContain("Ticket status changed");

    const conn = await one(
      env.deps.db.insert(connections).values({ name: "Desk", provider: "sandbox", isDefault: true }).returning(),
    );
    await env.deps.channels.start(conn.id);
    await env.sandbox.scan(conn.id);
    await env.sandbox.inbound(conn.id, { from: "5511988887777", body: "Oi" });
    await webhookEventsRecorded(env.deps);
    await env.deps.jobs.tick();
    expect(received).toHaveLength(1);

    await page.click("text=Reload");
    const delivery = page.locator('[data-testid="webhook-log"] tr[data-delivery-id]');
    await delivery.filter({ hasText: "Message received" }).waitFor();
    expect(await delivery.getAttribute("data-status")).toBe("pending");
    expect(await delivery.locator(".webhook-tries li").textContent()).toContain("500");
    await snapshot({ screenshot: (options) => page.screenshot({ ...options, fullPage: true }) }, "e2e-webhooks-1440");
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  test("Settings regenerates the API token after a confirmation", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page);
    await page.goto(`${env.base}/Settings`);
    await page.waitForSelector('[data-island="AdminSettings"][data-hydrated="true"]');
    const before = await getSetting(env.deps.db, "userApiToken");
    const field = page.getByLabel("API token");
    expect(await field.inputValue()).toBe(before);
    await page.click("text=Regenerate token");
    await page
      .locator("dialog")
      .getByRole("button", { name: /confirm|ok|yes/i })
      .click();
    await page.waitForFunction(
      (old) => (document.querySelector<HTMLInputElement>("input[readonly]")?.value ?? old) !== old,
      before,
    );
    expect(await getSetting(env.deps.db, "userApiToken")).not.toBe(before);
    expect(await field.inputValue()).toBe(await getSetting(env.deps.db, "userApiToken"));
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
