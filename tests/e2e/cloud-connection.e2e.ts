import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { cloudAccounts, connections } from "../../src/db/tables";
import { waitFor } from "../wait-for";
import { FakeGraph } from "../channels/fake-graph";
import { addUser, bootE2E, logIn, openPage } from "./boot";

const graph = new FakeGraph();
let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "cloud@example.com", password: "secret-123", name: "Cloud Admin" };

beforeAll(async () => {
  env = await bootE2E({ cloudApiUrl: graph.url });
  await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  graph.stop();
  await env?.stop();
});

test("an admin adds a Cloud API connection in the modal: it connects, and editing it shows the webhook URL and verify token to copy", async () => {
  const { page, errors } = await openPage(env.browser);
  await logIn(page, env.base, ADMIN);
  await page.click('#drawer a[href="/connections"]');
  await page.waitForSelector('[data-island="AdminConnections"][data-hydrated="true"]');
  await page.click("text=Add WhatsApp");
  const modal = page.locator("dialog.admin-modal");
  await modal.getByLabel("Name", { exact: true }).fill("Official");
  await modal.getByLabel("Provider").selectOption("cloud");
  await modal.getByLabel("Phone number ID").fill(graph.phoneNumberId);
  await modal.getByLabel("WhatsApp Business Account ID").fill("2002");
  await modal.getByLabel("Access token (system user)").fill(graph.token);
  await modal.getByLabel("App secret").fill("the-app-secret");
  await modal.getByRole("button", { name: "Save" }).click();
  await page.waitForSelector("text=Connection saved.");

  const row = await waitFor(async () => {
    const found = await first(env.deps.db.select().from(connections).where(eq(connections.name, "Official")));
    return found?.status === "CONNECTED" && found;
  });
  const account = await first(env.deps.db.select().from(cloudAccounts).where(eq(cloudAccounts.whatsappId, row.id)));
  expect(account).toMatchObject({
    phoneNumberId: graph.phoneNumberId,
    accessToken: graph.token,
    appSecret: "the-app-secret",
  });

  await page.getByRole("button", { name: "Edit Official" }).click();
  const edit = page.locator("dialog.admin-modal");
  const webhookUrl = edit.getByLabel("Webhook URL (callback URL in Meta's app)");
  expect(await webhookUrl.inputValue()).toBe(`${env.base}/api/webhooks/whatsapp-cloud/${row.id}`);
  await waitFor(async () => (await edit.getByLabel("Verify token").count()) > 0);
  expect(await edit.getByLabel("Verify token").inputValue()).toBe(account!.verifyToken);
  expect(errors).toEqual([]);
});
