import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { queues } from "../../src/db/schema";
import { hashPassword } from "../../src/modules/auth/passwords";
import { insertUser } from "../../src/modules/users/service";
import { bootE2E, openPage, snapshot, logIn, addSandboxConnection } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
const tokens: Record<string, string> = {};
const PASSWORD = "secret-123";
const PEOPLE = { admin: "ada@example.com", first: "fred@example.com", second: "sara@example.com" } as const;
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

async function apiAs(who: keyof typeof PEOPLE, method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens[who]}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

async function login(page: Page, email: string, landing: string) {
  await logIn(page, env.base, { email, password: PASSWORD });
  if (landing !== "/tickets") await page.goto(env.base + landing);
}

beforeAll(async () => {
  env = await bootE2E();
  const hash = await hashPassword(PASSWORD, env.deps.config.passwordHashing);
  const [qa, qb] = env.deps.db
    .insert(queues)
    .values([
      { name: "Vendas", color: "#1e88e5" },
      { name: "Suporte", color: "#8e24aa" },
    ])
    .returning()
    .all();
  insertUser(env.deps.db, { name: "Ada Admin", email: PEOPLE.admin, passwordHash: hash, profile: "admin" });
  insertUser(env.deps.db, {
    name: "Fred Vendas",
    email: PEOPLE.first,
    passwordHash: hash,
    profile: "user",
    queueIds: [qa!.id],
  });
  insertUser(env.deps.db, {
    name: "Sara Suporte",
    email: PEOPLE.second,
    passwordHash: hash,
    profile: "user",
    queueIds: [qb!.id],
  });
  whatsappId = await addSandboxConnection(env);
  for (const [who, email] of Object.entries(PEOPLE)) {
    const res = await fetch(`${env.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    tokens[who] = ((await res.json()) as { token: string }).token;
  }
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

describe("agent screens in the browser", () => {
  test("contacts start a ticket; quote, image, quick answer, resolve/reopen, tags, drawer, delete; transfer moves a ticket between queues; bell, schedules, profile", async () => {
    const contact = await apiAs("admin", "POST", "/contacts", { name: "Carla Compras", number: "5511977776666" });
    expect(contact.status).toBe(200);
    const { context, page, errors } = await openPage(env.browser);
    await login(page, PEOPLE.admin, "/contacts");
    await page.waitForSelector('[data-island="AgentContacts"][data-hydrated="true"]');
    await page.fill('input[type="search"]', "CARLA");
    const row = page.locator("tr", { hasText: "Carla Compras" });
    await row.waitFor();
    await snapshot(page, "e2e-contacts-1440");
    await row.getByRole("button", { name: "Start ticket with Carla Compras" }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const ticketId = Number(page.url().split("/").pop());
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');

    // The customer writes; the agent quotes that message in the reply.
    await apiAs("admin", "POST", `/sandbox/${whatsappId}/inbound`, {
      from: "5511977776666",
      name: "Carla Compras",
      body: "Qual o prazo de entrega?",
    });
    const inbound = page.locator(".bubble.them", { hasText: "Qual o prazo de entrega?" });
    await inbound.waitFor();
    await inbound.getByRole("button", { name: "Reply" }).click();
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.fill("Chega amanhã.");
    await input.press("Enter");
    const reply = page.locator(".bubble.me", { hasText: "Chega amanhã." });
    await reply.waitFor();
    expect(await reply.locator(".quote").textContent()).toContain("Qual o prazo de entrega?");

    // "/" in the composer lists quick answers; picking one fills the input.
    await apiAs("admin", "POST", "/quickAnswers", { shortcut: "prazo", message: "Entregamos em até 2 dias úteis." });
    await input.fill("/pra");
    await page.getByRole("option", { name: /prazo/ }).click();
    expect(await input.inputValue()).toBe("Entregamos em até 2 dias úteis.");
    await input.fill("");

    await page.setInputFiles('.composer input[type="file"]', { name: "pixel.png", mimeType: "image/png", buffer: PNG });
    await page.locator(".bubble.me img.media-image").waitFor();
    await snapshot(page, "e2e-agent-chat-1440");

    await page.getByRole("button", { name: "Resolve" }).click();
    await page.waitForURL(`${env.base}/tickets`);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.getByRole("button", { name: "Reopen" }).click();
    await page.getByRole("button", { name: "Resolve" }).waitFor();

    // Move it into the first queue, then transfer it to the second one from the dialog.
    expect(
      (await apiAs("admin", "PUT", `/tickets/${ticketId}`, { queueId: 1, userId: null, status: "pending" })).status,
    ).toBe(200);
    expect((await apiAs("first", "GET", `/tickets/${ticketId}`)).status).toBe(200);
    const second = await openPage(env.browser, { width: 375, height: 740 });
    await second.page.addInitScript(() => {
      const notes: string[][] = [];
      (window as any).__notes = notes;
      (window as any).Notification = class {
        static permission = "granted";
        static requestPermission = () => Promise.resolve("granted");
        constructor(title: string, opts: { body: string }) {
          notes.push([title, opts.body]);
        }
      };
    });
    await login(second.page, PEOPLE.second, "/tickets");
    await second.page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await second.page.click("role=tab[name=/Waiting/]");
    await second.page.waitForSelector('.ticket-list[aria-busy="false"]');
    expect(await second.page.locator(".ticket-row", { hasText: "Carla Compras" }).count()).toBe(0);

    await page.reload();
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.getByRole("button", { name: "Transfer" }).click();
    const dialog = page.getByRole("dialog", { name: "Transfer ticket" });
    await dialog.getByLabel("Queue").selectOption({ label: "Suporte" });
    await snapshot(dialog, "e2e-transfer-1440");
    await dialog.getByRole("button", { name: "Transfer" }).click();
    await page.waitForURL(`${env.base}/tickets`);

    await second.page.locator(".ticket-row.pending", { hasText: "Carla Compras" }).waitFor();
    await snapshot(second.page, "e2e-transfer-375");
    expect((await apiAs("first", "GET", `/tickets/${ticketId}`)).status).not.toBe(200);
    // A new message on the agent's waiting ticket: desktop notification and the bell lists the ticket.
    await apiAs("admin", "POST", `/sandbox/${whatsappId}/inbound`, {
      from: "5511977776666",
      name: "Carla Compras",
      body: "Alguém aí?",
    });
    await second.page.waitForFunction(() =>
      (window as any).__notes.some((n: string[]) => n[0] === "Carla Compras" && n[1] === "Alguém aí?"),
    );
    await second.page.getByRole("button", { name: "Notifications" }).click();
    await second.page.locator(".bell .menu-row", { hasText: "Carla Compras" }).waitFor();
    await second.page.keyboard.press("Escape");
    const firstList = await apiAs("first", "GET", "/tickets?status=pending&showAll=false");
    expect(firstList.json.tickets.some((t: { id: number }) => t.id === ticketId)).toBe(false);

    // New ticket from the tickets list: the autocomplete offers to add the typed name as a contact.
    await page.getByRole("button", { name: "New", exact: true }).click();
    const newDialog = page.getByRole("dialog", { name: "New ticket" });
    await newDialog.getByLabel("Contact").fill("Diego");
    await newDialog.getByRole("option", { name: 'Add contact "Diego"' }).click();
    await newDialog.getByLabel("WhatsApp number").fill("5511955554444");
    await snapshot(newDialog, "e2e-new-ticket-1440");
    await newDialog.getByRole("button", { name: "OK" }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".chat-title strong", { hasText: "Diego" }).waitFor();

    // Tag editor, contact drawer, then delete (admin) with its confirmation.
    await apiAs("admin", "POST", "/tags", { name: "VIP", color: "#e53935" });
    await page.getByRole("button", { name: "Tags" }).click();
    await page.getByRole("checkbox", { name: "VIP" }).check();
    await page.locator(".tag-editor .chip", { hasText: "VIP" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Contact details of Diego" }).click();
    const drawer = page.getByRole("dialog", { name: "Contact details" });
    await drawer.getByRole("link", { name: "5511955554444" }).waitFor();
    await snapshot(page, "e2e-contact-drawer-1440");
    await drawer.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Delete ticket/ })
      .getByRole("button", { name: "Confirm" })
      .click();
    await page.waitForURL(`${env.base}/tickets`);

    // /ticketfind/{phone} redirects to the contact's ticket.
    await page.goto(`${env.base}/ticketfind/5511977776666`);
    await page.waitForURL(`${env.base}/tickets/${ticketId}`);

    // A schedule through the modal: contact picker, body, default send time one hour ahead.
    await page.goto(`${env.base}/schedules`);
    await page.waitForSelector('[data-island="AgentSchedules"][data-hydrated="true"]');
    await page.getByRole("button", { name: "New schedule" }).click();
    const scheduleDialog = page.getByRole("dialog", { name: "New schedule" });
    await scheduleDialog.getByLabel("Contact").fill("Carla");
    await scheduleDialog.getByRole("option", { name: /Carla Compras/ }).click();
    await scheduleDialog.getByLabel("Message").fill("Lembrete: sua entrega chega amanhã de manhã.");
    await scheduleDialog.getByRole("button", { name: "OK" }).click();
    const scheduleRow = page.locator("tr", { hasText: "Carla Compras" });
    await scheduleRow.waitFor();
    expect(await scheduleRow.textContent()).toContain("Lembrete: sua entrega che...");
    expect(await scheduleRow.textContent()).toContain("Pending");
    await snapshot(page, "e2e-schedules-1440");

    await second.page.goto(`${env.base}/tickets/${ticketId}`);
    await second.page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await second.page.locator(".bubble").first().waitFor();
    await snapshot(second.page, "e2e-chat-375");
    await second.page.goto(`${env.base}/`);
    await second.page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
    await second.page.getByRole("button", { name: "User menu" }).click();
    await second.page.getByRole("menuitem", { name: "Profile" }).click();
    const profile = second.page.getByRole("dialog", { name: "My profile" });
    await profile.getByLabel("Name").fill("Sara S. Suporte");
    await snapshot(profile, "e2e-profile-375");
    await profile.getByRole("button", { name: "OK" }).click();
    await second.page.waitForLoadState("load");
    await second.page.waitForFunction(
      () => JSON.parse(document.getElementById("__boot")!.textContent!).user.name === "Sara S. Suporte",
    );
    await second.page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    await snapshot(second.page, "e2e-dashboard-375");
    await second.page.goto(`${env.base}/contacts`);
    await second.page.locator("tr", { hasText: "Carla Compras" }).waitFor();
    await snapshot(second.page, "e2e-contacts-375");
    await page.goto(`${env.base}/`);
    await page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    await snapshot(page, "e2e-dashboard-1440");

    expect(errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await second.context.close();
    await context.close();
  }, 25_000);
});
