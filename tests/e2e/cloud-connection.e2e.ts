import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { cloudAccounts, connections, massMessages, schedules, tickets } from "../../src/db/tables";
import { waitFor } from "../wait-for";
import { FakeGraph, notification, sign } from "../channels/fake-graph";
import { addUser, bootE2E, logIn, openPage } from "./boot";

const graph = new FakeGraph();
let env: Awaited<ReturnType<typeof bootE2E>>;
let adminId: number;
const ADMIN = { email: "cloud@example.com", password: "secret-123", name: "Cloud Admin" };

beforeAll(async () => {
  env = await bootE2E({ cloudApiUrl: graph.url });
  adminId = await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  graph.stop();
  await env?.stop();
});

test("an admin adds a Cloud API connection in the modal: it connects, editing it shows the webhook URL and verify token to copy, a reply past the 24 h window offers a template, and a schedule and a campaign take one", async () => {
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
  await edit.getByRole("button", { name: "Cancel" }).click();

  // A customer who wrote 25 h ago: a typed reply is refused and the template form opens instead.
  const at = Math.floor((Date.now() - 25 * 3600 * 1000) / 1000);
  const body = notification(graph.phoneNumberId, {
    contacts: [{ wa_id: "5511988887777", profile: { name: "Carla" } }],
    messages: [{ from: "5511988887777", id: "wamid.old", timestamp: String(at), type: "text", text: { body: "Oi" } }],
  });
  const answer = await fetch(`${env.base}/api/webhooks/whatsapp-cloud/${row.id}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-hub-signature-256": sign(JSON.stringify(body), "the-app-secret"),
    },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  const ticket = await waitFor(() => first(env.deps.db.select().from(tickets).where(eq(tickets.whatsappId, row.id))));
  await env.deps.db.update(tickets).set({ status: "open", userId: adminId }).where(eq(tickets.id, ticket.id));
  await page.goto(`${env.base}/tickets/${ticket.id}`);
  await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
  const input = page.getByRole("textbox", { name: "Type a message" });
  await input.fill("Still there?");
  await input.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Send a template" });
  await dialog.getByLabel("Value 1").fill("Carla");
  await dialog.getByLabel("Value 2").fill("#42");
  expect(await dialog.locator(".template-preview").textContent()).toBe("Olá Carla, seu pedido #42 saiu para entrega.");
  await dialog.getByRole("button", { name: "Send template" }).click();
  await page.waitForSelector("text=Template sent.");
  expect(graph.sends.filter((s) => s.body.type).map((s) => s.body.template)).toMatchObject([
    { name: "order_update", language: { code: "pt_BR" } },
  ]);

  // A template with an image header and a URL button asks for both.
  graph.templates.push({
    name: "shipped",
    language: "en_US",
    status: "APPROVED",
    components: [
      { type: "HEADER", format: "IMAGE" },
      { type: "BODY", text: "Order {{1}} is on its way." },
      { type: "BUTTONS", buttons: [{ type: "URL", text: "Track", url: "https://track.example.com/{{1}}" }] },
    ],
  });
  await input.fill("Shipped?");
  await input.press("Enter");
  await dialog.getByLabel("Template", { exact: true }).selectOption("shipped|en_US");
  await dialog.getByLabel("Header image link").fill("https://cdn.example.com/box.jpg");
  await dialog.getByLabel("Value 1").fill("#42");
  await dialog.getByLabel("End of the “Track” button's link (https://track.example.com/{{1}})").fill("42");
  await dialog.getByRole("button", { name: "Send template" }).click();
  await waitFor(() => graph.sends.filter((s) => s.body.type === "template").length === 2);
  expect(graph.sends.at(-1)!.body.template).toMatchObject({
    name: "shipped",
    components: [
      { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.example.com/box.jpg" } }] },
      { type: "body", parameters: [{ type: "text", text: "#42" }] },
      { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "42" }] },
    ],
  });

  // A message scheduled from the chat takes a template for when the window is still closed.
  await input.fill("See you tomorrow");
  await page.getByRole("button", { name: "Send later" }).first().click();
  const schedule = page.getByRole("dialog", { name: "New schedule" });
  await schedule.getByLabel("Approved template").selectOption("order_update|pt_BR");
  await schedule.getByLabel("Value 1").fill("Carla");
  await schedule.getByLabel("Value 2").fill("#43");
  await schedule.getByRole("button", { name: "Save" }).click();
  await page.waitForSelector("text=Schedule saved.");
  const saved = await waitFor(() => first(env.deps.db.select().from(schedules)));
  expect(JSON.parse(saved.template!)).toEqual({
    name: "order_update",
    language: "pt_BR",
    parameters: ["Carla", "#43"],
  });

  // A campaign on the cloud connection (the bulk screens leave the default one out) takes one too, filled per line.
  await env.deps.db.update(connections).set({ isDefault: false }).where(eq(connections.id, row.id));
  await env.deps.db.insert(connections).values({ name: "Phone", provider: "sandbox", isDefault: true });
  await page.goto(`${env.base}/BulkMessage`);
  await page.waitForSelector('[data-island="BulkMessage"][data-hydrated="true"]');
  await page.getByLabel("Connection", { exact: true }).selectOption(String(row.id));
  await page.getByLabel("Approved template").selectOption("order_update|pt_BR");
  await page.getByLabel("Value 1").fill("{name}");
  await page.getByLabel("Value 2").fill("#{order}");
  await page.getByLabel("Template", { exact: true }).fill("Hi {name}");
  await page.getByLabel("Data").fill("phone,name,order\n11999990001,Ana,7");
  await page.getByRole("button", { name: "Send Message" }).click();
  await page.waitForSelector("text=1 messages saved to the database");
  const record = await first(env.deps.db.select().from(massMessages));
  expect(JSON.parse(record!.template!)).toEqual({ name: "order_update", language: "pt_BR", parameters: ["Ana", "#7"] });
  expect(errors).toEqual([]);
});
