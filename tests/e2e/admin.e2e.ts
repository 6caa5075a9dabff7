import { one, first } from "../../src/db/client";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { chatbots, connections, contacts, queues, tags, tickets } from "../../src/db/tables";
import { showQueue } from "../../src/modules/queues/service";
import { getSetting } from "../../src/modules/settings/service";
import { bootE2E, openPage, snapshot, logIn, addUser, addSandboxConnection } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let adminId: number;
const ADMIN = { email: "ada@example.com", password: "secret-123", name: "Ada Admin" };
/** The admin's page, signed in once for the file; each test starts by opening the screen it needs. */
let admin: Awaited<ReturnType<typeof openPage>>;

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  // Seeded for the tests that need a connection, or a queue with a chatbot option, without making them first.
  await addSandboxConnection(env);
  const support = await one(env.deps.db.insert(queues).values({ name: "Support", color: "#2255aa" }).returning());
  await env.deps.db.insert(chatbots).values({ name: "Returns", greetingMessage: "Returns desk", queueId: support.id });
  admin = await openPage(env.browser);
  await logIn(admin.page, env.base, ADMIN);
}, 30_000);

beforeEach(() => {
  admin.errors.length = 0;
});

afterAll(async () => {
  await env?.stop();
});

async function open(page: Page, path: string, island: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector(`[data-island="${island}"][data-hydrated="true"]`);
}

describe("administration screens", () => {
  test("a connection made in the modal (weekday hours and history import checked) starts by itself and turns Connected once its QR is scanned", async () => {
    const { page, errors } = admin;
    await open(page, "/connections", "AdminConnections");
    await page.click("text=Add WhatsApp");
    const modal = page.locator("dialog.admin-modal");
    await modal.getByLabel("Name", { exact: true }).fill("Front desk");
    // A real number unless the sandbox is picked, as the README's walkthrough does.
    expect(await modal.getByLabel("Provider").inputValue()).toBe("baileys");
    await modal.getByLabel("Provider").selectOption("sandbox");
    // The automatic texts start in the interface's language.
    expect(await modal.getByLabel("Language of automatic texts").inputValue()).toBe("en");
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
    expect(await first(env.deps.db.select().from(connections).where(eq(connections.name, "Front desk")))).toMatchObject(
      {
        importHistory: true,
        importHistoryDays: 14,
        language: "en",
      },
    );
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
    expect(errors).toEqual([]);
  }, 20_000);

  test("the queue modal asks for an option's name, then saves the queue with a chatbot option handed to an attendant", async () => {
    const { page, errors } = admin;
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
    const id = (await first(env.deps.db.select().from(queues).where(eq(queues.name, "Sales"))))!.id;
    const saved = await showQueue(env.deps.db, id);
    expect(saved).toMatchObject({ name: "Sales", color: "#aa3300" });
    expect(saved.chatbots).toHaveLength(1);
    expect(saved.chatbots[0]).toMatchObject({
      name: "Billing",
      greetingMessage: "Billing team here",
      isAgent: true,
      userId: adminId,
    });
    expect(errors).toEqual([]);
  }, 20_000);

  test("an error toast shows above the open modal, not under its backdrop", async () => {
    const { page, errors } = admin;
    await open(page, "/Queues", "AdminQueues");
    await page.click("text=Add queue");
    const queueModal = page.locator("dialog.admin-modal");
    await queueModal.getByLabel("Name", { exact: true }).fill("Support");
    await queueModal.getByLabel("Colour", { exact: true }).fill("#0a0b0c");
    await queueModal.getByRole("button", { name: "Save" }).click();
    const toast = page.locator(".toast-error");
    await toast.waitFor();
    // What the screen shows at the toast's centre is the toast's own colour, not one dimmed by the backdrop.
    const box = (await toast.boundingBox())!;
    const shot = await page.screenshot({ clip: { x: box.x + 4, y: box.y + 4, width: 1, height: 1 } });
    const shown = await page.evaluate(async (png) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }, shot.toString("base64"));
    const own = await toast.evaluate((el) =>
      getComputedStyle(el).backgroundColor.match(/\d+/g)!.slice(0, 3).map(Number),
    );
    for (const [i, channel] of own.entries()) expect(Math.abs(shown[i]! - channel)).toBeLessThan(8);
    expect(await queueModal.isVisible()).toBe(true);
    await queueModal.getByRole("button", { name: "Cancel" }).click();
    expect(errors).toEqual([]);
  });

  test("a setting is saved as soon as it changes", async () => {
    const { page, errors } = admin;
    await open(page, "/Settings", "AdminSettings");
    await page.getByLabel("User creation").selectOption("enabled");
    await page.waitForSelector("text=Setting saved.");
    expect(await getSetting(env.deps.db, "userCreation")).toBe("enabled");
    expect(await page.getByLabel("New ticket after").locator("option").allTextContents()).toContain("48 hours");
    await snapshot(page, "e2e-admin-settings-1440");
    expect(errors).toEqual([]);
  }, 20_000);

  test("a backup downloads through a signed link asked for at the click, never with the token in its URL", async () => {
    const { page, errors } = admin;
    const dir = join(env.deps.config.dataDir, "backups");
    mkdirSync(dir, { recursive: true });
    const name = `zapdesk-2000-01-0${process.pid % 9}T00-00-00Z.sqlite`;
    writeFileSync(join(dir, name), "SQLite format 3\u0000 backup bytes");
    const asked: string[] = [];
    const record = (request: { url(): string }) => asked.push(request.url());
    page.on("request", record);
    try {
      await open(page, "/Settings", "AdminSettings");
      const row = page.locator(".admin-backups li", { hasText: "0.0 MB" }).first();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        row.getByRole("link", { name: "Download" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      expect(readFileSync((await download.path())!, "utf8")).toStartWith("SQLite format 3");
      expect(download.url()).toMatch(/\/api\/backups\/[^?]+\?expires=\d+&signature=[\w-]+$/);
      expect(asked.filter((url) => /[?&]token=/.test(url))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      page.off("request", record);
      rmSync(join(dir, name), { force: true });
    }
  }, 20_000);

  test("the user modal shows the form's messages, then saves a user with a queue and a default connection", async () => {
    const { page, errors } = admin;
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
    await userModal.getByLabel("Support").check();
    await userModal.getByLabel("Default connection").selectOption({ label: "Sandbox" });
    await userModal.getByRole("button", { name: "Save" }).click();
    await page.locator("tr", { hasText: "bruno@example.com" }).filter({ hasText: "Sandbox" }).waitFor();
    expect(errors).toEqual([]);
  }, 20_000);

  test("a tag added through the dialog, its colour picked from the presets, is listed", async () => {
    const { page, errors } = admin;
    await open(page, "/tags", "AdminTags");
    await page.click("text=Add tag");
    const dialog = page.locator("dialog.admin-modal");
    await dialog.getByLabel("Name", { exact: true }).fill("VIP");
    expect(await dialog.locator(".color-preset").count()).toBe(50);
    await dialog.getByRole("button", { name: "#1976d2" }).click();
    expect(await dialog.getByLabel("Colour", { exact: true }).inputValue()).toBe("#1976d2");
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.locator("tr", { hasText: "VIP" }).waitFor();
    expect((await first(env.deps.db.select().from(tags).where(eq(tags.name, "VIP"))))?.color).toBe("#1976d2");
    await snapshot(page, "e2e-admin-tags-1440");
    expect(errors).toEqual([]);
  }, 20_000);

  test("the admin screens stay usable at 375 px: lists render and the queue modal opens with its options", async () => {
    const { page, errors } = admin;
    await page.setViewportSize({ width: 375, height: 740 });
    try {
      await open(page, "/connections", "AdminConnections");
      await page.locator("tr", { hasText: "Sandbox" }).waitFor();
      await snapshot(page, "e2e-admin-connections-375");
      await open(page, "/Queues", "AdminQueues");
      await page.locator("tr", { hasText: "Support" }).getByRole("button", { name: "Edit" }).click();
      const option = page.locator("dialog.admin-modal").getByLabel("Option 1", { exact: true });
      await option.waitFor();
      expect(await option.inputValue()).toBe("Returns");
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
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    expect(errors).toEqual([]);
  }, 20_000);

  test("deleting a queue that still has tickets asks which queue they move to", async () => {
    const db = env.deps.db;
    const leaving = await one(db.insert(queues).values({ name: "Leaving", color: "#123456" }).returning());
    const staying = await one(db.insert(queues).values({ name: "Staying", color: "#654321" }).returning());
    const contact = await one(db.insert(contacts).values({ name: "Rita Fila", number: "5511955554444" }).returning());
    const ticket = await one(
      db.insert(tickets).values({ contactId: contact.id, queueId: leaving.id, status: "closed" }).returning(),
    );
    const { page, errors } = admin;
    await open(page, "/Queues", "AdminQueues");
    await page.getByRole("button", { name: "Delete Leaving" }).click();
    const dialog = page.locator("dialog.admin-modal", { hasText: "Delete Leaving?" });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByLabel("Move its tickets to").selectOption({ label: "Staying" });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.waitForSelector("text=Queue deleted.");
    expect(await page.locator("tr", { hasText: "Leaving" }).count()).toBe(0);
    expect(
      (await first(db.select({ queueId: tickets.queueId }).from(tickets).where(eq(tickets.id, ticket.id))))!.queueId,
    ).toBe(staying.id);
    expect(errors).toEqual([]);
  }, 20_000);
});
