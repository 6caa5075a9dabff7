import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { contacts, queues, tickets, connections } from "../../src/db/schema";
import { hashPassword } from "../../src/modules/auth/passwords";
import { showQueue } from "../../src/modules/queues/service";
import { getSetting } from "../../src/modules/settings/service";
import { insertUser } from "../../src/modules/users/service";
import { bootE2E, openPage, snapshot, logIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "ada@example.com", password: "secret-123", name: "Ada Admin" };

beforeAll(async () => {
  env = await bootE2E();
  insertUser(env.deps.db, {
    name: ADMIN.name,
    email: ADMIN.email,
    passwordHash: await hashPassword(ADMIN.password, env.deps.config.passwordHashing),
    profile: "admin",
  });
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function open(page: Page, path: string, island: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector(`[data-island="${island}"][data-hydrated="true"]`);
}

describe("administration screens", () => {
  test("an admin creates a sandbox connection, scans its QR live, builds a queue with a chatbot option and changes a setting", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, ADMIN);

    // Connection through the modal; the session starts by itself and waits for a QR scan.
    await open(page, "/connections", "AdminConnections");
    await page.click("text=Add WhatsApp");
    const modal = page.locator("dialog.admin-modal");
    await modal.getByLabel("Name", { exact: true }).fill("Front desk");
    expect(await modal.getByLabel("Provider").inputValue()).toBe("sandbox");
    expect(await modal.getByLabel("Start (weekdays)").inputValue()).toBe("08:00");
    expect(await modal.getByLabel("End (weekdays)").inputValue()).toBe("17:30");
    expect(await modal.getByLabel("Friday").isChecked()).toBe(true);
    expect(await modal.getByLabel("Saturday").isChecked()).toBe(false);
    // History import: off by default; once on, 7 days unless changed, within 1–365.
    await modal.getByLabel("Import chat history when the phone is paired").check();
    expect(await modal.getByLabel("Days of history to import").inputValue()).toBe("7");
    await modal.getByLabel("Days of history to import").fill("0");
    await modal.getByRole("button", { name: "Save" }).click();
    await modal.locator(".field-error", { hasText: "Between 1 and 365 days" }).waitFor();
    await modal.getByLabel("Days of history to import").fill("14");
    await snapshot(page, "e2e-admin-connection-modal-1440");
    await modal.getByRole("button", { name: "Save" }).click();
    await page.waitForSelector("text=Connection saved.");
    expect(env.deps.db.select().from(connections).where(eq(connections.name, "Front desk")).get()).toMatchObject({
      importHistory: true,
      importHistoryDays: 14,
    });
    const row = page.locator("tr", { hasText: "Front desk" });
    await row.getByRole("button", { name: "QR CODE" }).click();

    const qr = page.locator("dialog.admin-modal", { hasText: "QR code: Front desk" });
    await qr.locator("svg.admin-qr").waitFor();
    expect(await qr.locator("svg.admin-qr").getAttribute("width")).toBe("256");
    await snapshot(page, "e2e-admin-qr-1440");
    await qr.getByRole("button", { name: "Scan (sandbox)" }).click();
    // The dialog closes on the live whatsappSession event (qrcode emptied) and the row turns CONNECTED.
    await qr.waitFor({ state: "detached" });
    await row.locator(".connection-status", { hasText: "Connected" }).waitFor();
    await row.getByRole("button", { name: "Disconnect" }).waitFor();
    await snapshot(page, "e2e-admin-connections-1440");

    // Queue with a chatbot option (Attendant) through the modal.
    await open(page, "/Queues", "AdminQueues");
    await page.click("text=Add queue");
    const queueModal = page.locator("dialog.admin-modal");
    await queueModal.getByLabel("Name", { exact: true }).fill("Sales");
    await queueModal.getByLabel("Colour", { exact: true }).fill("#aa3300");
    await queueModal.getByRole("button", { name: "Add option" }).click();
    await queueModal.getByRole("button", { name: "Save" }).click();
    expect(await queueModal.locator(".field-error").first().textContent()).toBe("Required");
    await queueModal.getByLabel("Option 1", { exact: true }).fill("Billing");
    await queueModal.getByLabel("Message").last().fill("Billing team here");
    await queueModal.getByLabel("Attendant", { exact: true }).check();
    await queueModal.getByLabel("Attendant user").selectOption({ label: ADMIN.name });
    await snapshot(page, "e2e-admin-queue-modal-1440");
    await queueModal.getByRole("button", { name: "Save" }).click();
    await page.waitForSelector("text=Queue saved.");
    await page.locator("tr", { hasText: "Sales" }).waitFor();
    const saved = showQueue(env.deps.db, 1);
    expect(saved).toMatchObject({ name: "Sales", color: "#aa3300" });
    expect(saved.chatbots).toHaveLength(1);
    expect(saved.chatbots[0]).toMatchObject({
      name: "Billing",
      greetingMessage: "Billing team here",
      isAgent: true,
      userId: 1,
    });

    // Settings save on change.
    await open(page, "/Settings", "AdminSettings");
    await page.getByLabel("User creation").selectOption("enabled");
    await page.waitForSelector("text=Setting saved.");
    expect(getSetting(env.deps.db, "userCreation")).toBe("enabled");
    expect(await page.getByLabel("New ticket after").locator("option").allTextContents()).toContain("48 hours");
    await snapshot(page, "e2e-admin-settings-1440");

    // Users: the list shows the admin; the modal validates with the form messages.
    await open(page, "/users", "AdminUsers");
    await page.locator("tr", { hasText: ADMIN.email }).waitFor();
    await page.click("text=Add user");
    await page.locator("dialog.admin-modal").getByRole("button", { name: "Save" }).click();
    expect(await page.locator("dialog.admin-modal .field-error").allTextContents()).toEqual([
      "Required",
      "Required",
      "Required",
    ]);
    const userModal = page.locator("dialog.admin-modal");
    await userModal.getByLabel("Name", { exact: true }).fill("Bruno Agent");
    await userModal.getByLabel("Email").fill("bruno@example.com");
    await userModal.getByLabel("Password").fill("pw");
    await userModal.getByRole("button", { name: "Save" }).click();
    expect(await userModal.locator(".field-error").allTextContents()).toEqual(["Too Short!"]);
    await userModal.getByLabel("Password").fill("secret-789");
    await userModal.getByLabel("Sales").check();
    await userModal.getByLabel("Default connection").selectOption({ label: "Front desk" });
    await userModal.getByRole("button", { name: "Save" }).click();
    await page.locator("tr", { hasText: "bruno@example.com" }).filter({ hasText: "Front desk" }).waitFor();

    // Tags: add one through the dialog; the chip takes its colour.
    await open(page, "/tags", "AdminTags");
    await page.click("text=Add tag");
    await page.locator("dialog.admin-modal").getByLabel("Name", { exact: true }).fill("VIP");
    await page.locator("dialog.admin-modal").getByRole("button", { name: "Save" }).click();
    await page.locator("tr", { hasText: "VIP" }).waitFor();
    await snapshot(page, "e2e-admin-tags-1440");

    // Small screens: the same screens stay usable at 375 px.
    await page.setViewportSize({ width: 375, height: 740 });
    await open(page, "/connections", "AdminConnections");
    await page.locator("tr", { hasText: "Front desk" }).waitFor();
    await snapshot(page, "e2e-admin-connections-375");
    await open(page, "/Queues", "AdminQueues");
    await page.locator("tr", { hasText: "Sales" }).getByRole("button", { name: "Edit" }).click();
    await page.locator("dialog.admin-modal").getByLabel("Option 1", { exact: true }).waitFor();
    expect(await page.locator("dialog.admin-modal").getByLabel("Option 1", { exact: true }).inputValue()).toBe(
      "Billing",
    );
    await snapshot(page, "e2e-admin-queue-modal-375");
    await page.keyboard.press("Escape");
    await page.locator("dialog.admin-modal").waitFor({ state: "detached" });

    for (const [path, island] of [
      ["/users", "AdminUsers"],
      ["/tags", "AdminTags"],
      ["/Settings", "AdminSettings"],
    ] as const) {
      await open(page, path, island);
      await page.locator("tbody tr, .admin-settings").first().waitFor();
      await snapshot(page, `e2e-admin${path.toLowerCase().replace("/", "-")}-375`);
    }

    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("deleting a queue that still has tickets asks which queue they move to", async () => {
    const db = env.deps.db;
    const leaving = db.insert(queues).values({ name: "Leaving", color: "#123456" }).returning().get();
    const staying = db.insert(queues).values({ name: "Staying", color: "#654321" }).returning().get();
    const contact = db.insert(contacts).values({ name: "Rita Fila", number: "5511955554444" }).returning().get();
    const ticket = db
      .insert(tickets)
      .values({ contactId: contact.id, queueId: leaving.id, status: "closed" })
      .returning()
      .get();
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, ADMIN);
    await open(page, "/Queues", "AdminQueues");
    await page.getByRole("button", { name: "Delete Leaving" }).click();
    const dialog = page.locator("dialog.admin-modal", { hasText: "Delete Leaving?" });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByLabel("Move its tickets to").selectOption({ label: "Staying" });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.waitForSelector("text=Queue deleted.");
    expect(await page.locator("tr", { hasText: "Leaving" }).count()).toBe(0);
    expect(db.select({ queueId: tickets.queueId }).from(tickets).where(eq(tickets.id, ticket.id)).get()!.queueId).toBe(
      staying.id,
    );
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
