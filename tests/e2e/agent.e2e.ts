import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { queues } from "../../src/db/tables";
import { hashPassword } from "../../src/modules/auth/passwords";
import { insertUser } from "../../src/modules/users/service";
import { bootE2E, openPage, snapshot, logIn, addSandboxConnection } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
let sales: number;
let support: number;
const tokens: Record<string, string> = {};
const PASSWORD = "secret-123";
const PEOPLE = { admin: "ada@example.com", first: "fred@example.com", second: "sara@example.com" } as const;
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * One signed-in page per person for the whole file (signing in again per test would only repeat what the login
 * tests prove): the admin on a desktop screen, Sara (queue Suporte) on a phone-sized one. Each test starts by
 * navigating where it needs and works on its own contact, so the tests do not depend on each other's order.
 */
let admin: Awaited<ReturnType<typeof openPage>>;
let sara: Awaited<ReturnType<typeof openPage>>;

async function apiAs(who: keyof typeof PEOPLE, method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens[who]}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the answer it expects
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

async function addContact(name: string, number: string): Promise<number> {
  const contact = await apiAs("admin", "POST", "/contacts", { name, number });
  expect(contact.status).toBe(200);
  return contact.json.id;
}

/** A new contact with a ticket: open and the admin's, unless other fields are given. */
async function ticketWith(name: string, number: string, fields: Record<string, unknown> = {}): Promise<number> {
  const contactId = await addContact(name, number);
  const ticket = await apiAs("admin", "POST", "/tickets", { contactId, status: "open", userId: adminId, ...fields });
  expect(ticket.status).toBe(200);
  return ticket.json.id;
}

async function openChat(page: Page, ticketId: number) {
  await page.goto(`${env.base}/tickets/${ticketId}`);
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
}

beforeAll(async () => {
  env = await bootE2E();
  const hash = await hashPassword(PASSWORD, env.deps.config.passwordHashing);
  const [qa, qb] = await env.deps.db
    .insert(queues)
    .values([
      { name: "Vendas", color: "#1e88e5" },
      { name: "Suporte", color: "#8e24aa" },
    ])
    .returning();
  sales = qa!.id;
  support = qb!.id;
  adminId = (
    await insertUser(env.deps.db, {
      name: "Ada Admin",
      email: PEOPLE.admin,
      passwordHash: hash,
      profile: "admin",
    })
  ).id;
  await insertUser(env.deps.db, {
    name: "Fred Vendas",
    email: PEOPLE.first,
    passwordHash: hash,
    profile: "user",
    queueIds: [sales],
  });
  await insertUser(env.deps.db, {
    name: "Sara Suporte",
    email: PEOPLE.second,
    passwordHash: hash,
    profile: "user",
    queueIds: [support],
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
  admin = await openPage(env.browser);
  await logIn(admin.page, env.base, { email: PEOPLE.admin, password: PASSWORD });
  sara = await openPage(env.browser, { width: 375, height: 740 });
  // Desktop notifications land in window.__notes instead of the system.
  await sara.page.addInitScript(() => {
    const notes: string[][] = [];
    (window as unknown as { __notes: string[][] }).__notes = notes;
    (window as unknown as { Notification: unknown }).Notification = class {
      static permission = "granted";
      static requestPermission = () => Promise.resolve("granted");
      constructor(title: string, opts: { body: string }) {
        notes.push([title, opts.body]);
      }
    };
  });
  await logIn(sara.page, env.base, { email: PEOPLE.second, password: PASSWORD });
}, 30_000);

beforeEach(() => {
  admin.errors.length = 0;
  sara.errors.length = 0;
});

afterAll(async () => {
  await env?.stop();
});

describe("agent screens in the browser", () => {
  test("the contacts search ignores case and a contact's button starts a ticket with them", async () => {
    const { page, errors } = admin;
    await addContact("Carla Compras", "5511977776666");
    await page.goto(`${env.base}/contacts`);
    await page.waitForSelector('[data-island="AgentContacts"][data-hydrated="true"]');
    await page.fill('input[type="search"]', "CARLA");
    const row = page.locator("tr", { hasText: "Carla Compras" });
    await row.waitFor();
    await snapshot(page, "e2e-contacts-1440");
    await row.getByRole("button", { name: "Start ticket with Carla Compras" }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".chat-title strong", { hasText: "Carla Compras" }).waitFor();
    expect(errors).toEqual([]);
  }, 15_000);

  test("replying to a customer's message quotes it in the sent bubble", async () => {
    const { page, errors } = admin;
    await openChat(page, await ticketWith("Quitéria Prazo", "5511977771111"));
    await apiAs("admin", "POST", `/sandbox/${whatsappId}/inbound`, {
      from: "5511977771111",
      name: "Quitéria Prazo",
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
    expect(errors).toEqual([]);
  }, 15_000);

  test('"/" in the composer lists the quick answers and picking one fills the input', async () => {
    const { page, errors } = admin;
    await apiAs("admin", "POST", "/quickAnswers", { shortcut: "prazo", message: "Entregamos em até 2 dias úteis." });
    await openChat(page, await ticketWith("Rui Rápido", "5511977772222"));
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.fill("/pra");
    await page.getByRole("option", { name: /prazo/ }).click();
    expect(await input.inputValue()).toBe("Entregamos em até 2 dias úteis.");
    expect(errors).toEqual([]);
  }, 15_000);

  test("an image picked with the paperclip waits in the preview for a caption, then is sent and shows in the chat", async () => {
    const { page, errors } = admin;
    await openChat(page, await ticketWith("Iara Imagem", "5511977773333"));
    await page.setInputFiles('.composer input[type="file"]', { name: "pixel.png", mimeType: "image/png", buffer: PNG });
    const preview = page.getByRole("region", { name: "Files to send" });
    await preview.locator("img.thumbnail").waitFor();
    expect(await page.locator(".bubble.me img.media-image").count()).toBe(0);
    await page.getByRole("textbox", { name: "Add a caption" }).fill("Segue a foto");
    await preview.getByRole("button", { name: "Send" }).click();
    await page.locator(".bubble.me img.media-image").waitFor();
    expect(await page.locator(".bubble.me", { hasText: "Segue a foto" }).count()).toBe(1);
    await snapshot(page, "e2e-agent-chat-1440");
    expect(errors).toEqual([]);
  }, 15_000);

  test("resolving a ticket goes back to the list, and reopening it offers Resolve again", async () => {
    const { page, errors } = admin;
    const ticketId = await ticketWith("Renato Reis", "5511977774444");
    await openChat(page, ticketId);
    await page.getByRole("button", { name: "Resolve" }).click();
    await page.waitForURL(`${env.base}/tickets`);
    await openChat(page, ticketId);
    await page.getByRole("button", { name: "Reopen" }).click();
    await page.getByRole("button", { name: "Resolve" }).waitFor();
    expect(errors).toEqual([]);
  }, 15_000);

  test("transferring a ticket to another queue takes it from the first queue's agent to the second's waiting tab", async () => {
    const ticketId = await ticketWith("Tânia Torres", "5511977775555", {
      status: "pending",
      userId: null,
      queueId: sales,
    });
    expect((await apiAs("first", "GET", `/tickets/${ticketId}`)).status).toBe(200);
    await sara.page.goto(`${env.base}/tickets`);
    await sara.page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await sara.page.click("role=tab[name=/Waiting/]");
    await sara.page.waitForSelector('.ticket-list[aria-busy="false"]');
    expect(await sara.page.locator(".ticket-row", { hasText: "Tânia Torres" }).count()).toBe(0);

    await openChat(admin.page, ticketId);
    await admin.page.getByRole("button", { name: "Transfer" }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Transfer ticket" });
    await dialog.getByLabel("Queue").selectOption({ label: "Suporte" });
    await snapshot(dialog, "e2e-transfer-1440");
    await dialog.getByRole("button", { name: "Transfer" }).click();
    await admin.page.waitForURL(`${env.base}/tickets`);

    await sara.page.locator(".ticket-row.pending", { hasText: "Tânia Torres" }).waitFor();
    await snapshot(sara.page, "e2e-transfer-375");
    expect((await apiAs("first", "GET", `/tickets/${ticketId}`)).status).not.toBe(200);
    const firstList = await apiAs("first", "GET", "/tickets?status=pending&showAll=false");
    expect(firstList.json.tickets.some((t: { id: number }) => t.id === ticketId)).toBe(false);
    // The second agent can read the chat on a phone-sized screen.
    await openChat(sara.page, ticketId);
    await sara.page.locator(".chat-title strong", { hasText: "Tânia Torres" }).waitFor();
    await snapshot(sara.page, "e2e-chat-375");
    expect(admin.errors).toEqual([]);
    expect(sara.errors).toEqual([]);
  }, 15_000);

  test("a new message on a waiting ticket of the agent's queue shows a desktop notification and lists it under the bell", async () => {
    const { page, errors } = sara;
    await ticketWith("Beto Sino", "5511977776767", { status: "pending", userId: null, queueId: support });
    await page.goto(`${env.base}/tickets`);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await apiAs("admin", "POST", `/sandbox/${whatsappId}/inbound`, {
      from: "5511977776767",
      name: "Beto Sino",
      body: "Alguém aí?",
    });
    await page.waitForFunction(() =>
      (window as unknown as { __notes: string[][] }).__notes.some(
        (n: string[]) => n[0] === "Beto Sino" && n[1] === "Alguém aí?",
      ),
    );
    await page.getByRole("button", { name: "Notifications" }).click();
    await page.locator(".bell .menu-row", { hasText: "Beto Sino" }).waitFor();
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
  }, 15_000);

  test("the new-ticket dialog offers to add the typed name as a contact and opens the ticket", async () => {
    const { page, errors } = admin;
    await page.goto(`${env.base}/tickets`);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
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
    expect(errors).toEqual([]);
  }, 15_000);

  test("the tag editor puts a tag on the ticket", async () => {
    const { page, errors } = admin;
    await apiAs("admin", "POST", "/tags", { name: "VIP", color: "#e53935" });
    await openChat(page, await ticketWith("Tereza Tag", "5511977778888"));
    await page.getByRole("button", { name: "Tags" }).click();
    await page.getByRole("checkbox", { name: "VIP" }).check();
    await page.locator(".tag-editor .chip", { hasText: "VIP" }).waitFor();
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
  }, 15_000);

  test("the contact drawer shows the contact's number as a link", async () => {
    const { page, errors } = admin;
    await openChat(page, await ticketWith("Dora Gaveta", "5511977779999"));
    await page.getByRole("button", { name: "Contact details of Dora Gaveta" }).click();
    const drawer = page.getByRole("dialog", { name: "Contact details" });
    await drawer.getByRole("link", { name: "5511977779999" }).waitFor();
    await snapshot(page, "e2e-contact-drawer-1440");
    await drawer.getByRole("button", { name: "Close" }).click();
    expect(errors).toEqual([]);
  }, 15_000);

  test("an admin deletes a ticket after confirming and lands on the list", async () => {
    const { page, errors } = admin;
    const ticketId = await ticketWith("Dênis Apaga", "5511977770000");
    await openChat(page, ticketId);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Delete ticket/ })
      .getByRole("button", { name: "Confirm" })
      .click();
    await page.waitForURL(`${env.base}/tickets`);
    expect((await apiAs("admin", "GET", `/tickets/${ticketId}`)).status).toBe(404);
    expect(errors).toEqual([]);
  }, 15_000);

  test("/ticketfind/{phone} redirects to the contact's ticket", async () => {
    const { page, errors } = admin;
    const ticketId = await ticketWith("Fábio Acha", "5511966661111");
    await page.goto(`${env.base}/ticketfind/5511966661111`);
    await page.waitForURL(`${env.base}/tickets/${ticketId}`);
    expect(errors).toEqual([]);
  }, 15_000);

  test("a schedule made in the modal (contact picker, message, default time) lists as pending with its body cut short", async () => {
    const { page, errors } = admin;
    await addContact("Sílvia Agenda", "5511966662222");
    await page.goto(`${env.base}/schedules`);
    await page.waitForSelector('[data-island="AgentSchedules"][data-hydrated="true"]');
    await page.getByRole("button", { name: "New schedule" }).click();
    const scheduleDialog = page.getByRole("dialog", { name: "New schedule" });
    await scheduleDialog.getByLabel("Contact").fill("Sílvia");
    await scheduleDialog.getByRole("option", { name: /Sílvia Agenda/ }).click();
    await scheduleDialog.getByLabel("Message").fill("Lembrete: sua entrega chega amanhã de manhã.");
    await scheduleDialog.getByRole("button", { name: "Save" }).click();
    const scheduleRow = page.locator("tr", { hasText: "Sílvia Agenda" });
    await scheduleRow.waitFor();
    expect(await scheduleRow.textContent()).toContain("Lembrete: sua entrega che...");
    expect(await scheduleRow.textContent()).toContain("Pending");
    await snapshot(page, "e2e-schedules-1440");
    expect(errors).toEqual([]);
  }, 15_000);

  test("an agent renames themself in the profile dialog and the page reloads with the new name", async () => {
    const { page, errors } = sara;
    await page.goto(`${env.base}/`);
    await page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const profile = page.getByRole("dialog", { name: "My profile" });
    await profile.getByLabel("Name").fill("Sara S. Suporte");
    await snapshot(profile, "e2e-profile-375");
    await profile.getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState("load");
    await page.waitForFunction(
      () => JSON.parse(document.getElementById("__boot")!.textContent!).user.name === "Sara S. Suporte",
    );
    await page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    await snapshot(page, "e2e-dashboard-375");
    expect(errors).toEqual([]);
  }, 15_000);

  test("the dashboard and contacts screens render for an admin on a desktop and an agent on a phone", async () => {
    await addContact("Paula Tela", "5511966663333");
    await sara.page.goto(`${env.base}/contacts`);
    await sara.page.locator("tr", { hasText: "Paula Tela" }).waitFor();
    await snapshot(sara.page, "e2e-contacts-375");
    await admin.page.goto(`${env.base}/`);
    await admin.page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
    await snapshot(admin.page, "e2e-dashboard-1440");
    expect(admin.errors).toEqual([]);
    expect(sara.errors).toEqual([]);
  }, 15_000);
});
