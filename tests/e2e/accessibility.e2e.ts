import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { first } from "../../src/db/client";
import { messages, tickets } from "../../src/db/tables";
import { addSandboxConnection, addTicket, addUser, bootE2E, logIn, openPage } from "./boot";

/**
 * Every screen, in the light and the dark theme at a desktop (1440 px) and a phone (375 px) width, passes an
 * axe-core audit with no serious or critical violation. Each screen loads once: the theme and the width change on
 * the loaded page (prefers-color-scheme and the viewport), so the four audits of a screen share one page load.
 */

let env: Awaited<ReturnType<typeof bootE2E>>;
let ticketId: number;
const ADMIN = { email: "axe@example.com", password: "secret-123", name: "Alex Audit" };
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
/**
 * The four views of each screen. The dark theme changes colours only, so in it the rules about colour are run
 * again; every rule runs in the light theme at each width.
 */
const VIEWS = [
  { colorScheme: "light", width: 1440, height: 900, rules: "all" },
  { colorScheme: "dark", width: 1440, height: 900, rules: "colour" },
  { colorScheme: "light", width: 375, height: 812, rules: "all" },
  { colorScheme: "dark", width: 375, height: 812, rules: "colour" },
] as const;
/** The axe-core rules whose outcome depends on colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

beforeAll(async () => {
  env = await bootE2E();
  const adminId = await addUser(env, ADMIN, "admin");
  await addUser(env, { name: "Bea Agent", email: "bea@example.com", password: "secret-123" }, "user");
  const whatsappId = await addSandboxConnection(env);
  ticketId = await addTicket(env, {
    name: "Carla Cliente",
    number: "5511955550001",
    whatsappId,
    userId: adminId,
    bodies: ["Oi, veja https://example.com/pedido", "*1*"],
  });
  // A location the agent sent: own bubbles hold links (the map link) as well as times and ticks.
  const { contactId } = (await first(env.deps.db.select().from(tickets).where(eq(tickets.id, ticketId))))!;
  await env.deps.db.insert(messages).values({
    wid: "own-location",
    whatsappId,
    ticketId,
    contactId,
    fromMe: true,
    ack: 3,
    mediaType: "location",
    body: "-23.5505,-46.6333",
  });
  await addTicket(env, { name: "Dora Waiting", number: "5511955550002", whatsappId, userId: adminId, unread: true });
  const token = await adminToken();
  const post = (path: string, body: unknown) =>
    fetch(`${env.base}/api${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => {
      if (!r.ok) throw new Error(`${path}: ${r.status}`);
    });
  await post(`/messages/${ticketId}`, { body: "Your order https://example.com/track is on its way" });
  await post("/tags", { name: "VIP", color: "#f5c542" });
  await post("/tags", { name: "Urgent", color: "#c62828" });
  await post("/tags", { name: "Billing", color: "#1976d2" });
  await post("/queue", { name: "Support", color: "#2255aa", greetingMessage: "Welcome" });
  await post("/quickAnswers", { shortcut: "hello", message: "Hello! How can I help?" });
  await post("/webhooks", { url: "https://example.com/hook", events: ["message.received"] });
  // A ticket started in the panel leaves a "created" event: the reports' tables, charts and heatmap have figures.
  const contact = await fetch(`${env.base}/api/contacts`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Rita Report", number: "5511955550003" }),
  }).then((r) => r.json() as Promise<{ id: number }>);
  await post("/tickets", { contactId: contact.id, status: "open", userId: adminId });
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function adminToken() {
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  return ((await login.json()) as { token: string }).token;
}

async function logInAsAdmin(page: Page) {
  await logIn(page, env.base, ADMIN);
  await hydrated(page);
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical violations axe finds on the page as it is now (of the colour rules only, if given). */
async function seriousViolations(page: Page, only?: string[]): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (rules) => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const runOnly = rules ? { runOnly: { type: "rule", values: rules } } : {};
    return (await axe.run(document, { resultTypes: ["violations"], ...runOnly })).violations;
  }, only ?? null);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Waits until every island on the page has hydrated. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
}

/** Waits for the transitions a change of width or theme starts (the drawer slides away below 600 px). */
async function settled(page: Page) {
  // Transitions only: a spinner's animation runs forever.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** Audits the page as loaded in each theme and width; returns one readable line per violating element. */
async function auditViews(page: Page, screen: string): Promise<string[]> {
  const found: string[] = [];
  for (const view of VIEWS) {
    await page.emulateMedia({ colorScheme: view.colorScheme });
    await page.setViewportSize({ width: view.width, height: view.height });
    await settled(page);
    for (const v of await seriousViolations(page, view.rules === "colour" ? COLOUR_RULES : undefined))
      for (const node of v.nodes)
        found.push(
          `${screen} ${view.colorScheme} ${view.width}: ${v.id} (${v.impact}) ${node.target.join(" ")} ${node.failureSummary ?? ""}`,
        );
  }
  return found;
}

describe("accessibility", () => {
  test("every screen in both themes at 1440 and 375 px has no serious or critical axe-core violation", async () => {
    const { context, page, errors } = await openPage(env.browser);
    const found: string[] = [];
    for (const path of ["/login", "/signup"]) {
      await page.goto(`${env.base}${path}`);
      await hydrated(page);
      found.push(...(await auditViews(page, path)));
    }
    await page.goto(`${env.base}/login`);
    await page.fill("#email", ADMIN.email);
    await page.fill("#password", ADMIN.password);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${env.base}/tickets`);
    // /ticketfind/{phone} is left out: it is no screen of its own but a redirect to the ticket's chat, audited here.
    const screens = [
      "/",
      "/tickets",
      `/tickets/${ticketId}`,
      "/contacts",
      "/quickAnswers",
      "/schedules",
      "/reports",
      "/users",
      "/Queues",
      "/tags",
      "/connections",
      "/Settings",
      "/webhooks",
      "/BulkMessage",
      "/ShippingReport",
      "/SettingsMessage",
      "/sandbox",
    ];
    for (const path of screens) {
      await page.goto(`${env.base}${path}`);
      await hydrated(page);
      found.push(...(await auditViews(page, path)));
    }
    // What opens over a screen: the chat's tag popover, contact drawer and shortcut list, and a confirmation.
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await hydrated(page);
    expect(await page.locator(".bubble.me a.location-link").count()).toBe(1);
    await page.getByRole("button", { name: "Tags" }).click();
    await page.getByRole("checkbox", { name: "VIP" }).waitFor();
    found.push(...(await auditViews(page, "tag popover")));
    await page.keyboard.press("Escape");
    await page.locator(".chat-title").click();
    await page.getByRole("dialog", { name: "Contact details" }).getByText("Carla Cliente").first().waitFor();
    found.push(...(await auditViews(page, "contact drawer")));
    await page.keyboard.press("Escape");
    await page.locator("body").press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    found.push(...(await auditViews(page, "shortcuts")));
    await page.goto(`${env.base}/connections`);
    await hydrated(page);
    await page.getByRole("button", { name: "Restart service" }).click();
    await page.getByRole("dialog", { name: "Restart the service?" }).waitFor();
    found.push(...(await auditViews(page, "restart confirmation")));
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test("the first Tab stop skips the app bar and the drawer to the inbox", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logInAsAdmin(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    // The next stop is the inbox's first control, not the app bar's or the drawer's.
    expect(await page.evaluate(() => document.activeElement?.closest("main") != null)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest(".tickets-manager") != null)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("? outside a text field opens the list of keyboard shortcuts, which the user menu also opens", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logInAsAdmin(page);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await hydrated(page);
    // Typed into the composer, "?" is text.
    const composer = page.getByRole("textbox", { name: "Type a message" });
    await composer.fill("");
    await composer.press("?");
    expect(await page.getByRole("dialog", { name: "Keyboard shortcuts" }).count()).toBe(0);
    await page.locator(".messages").click();
    await page.keyboard.press("?");
    const list = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await list.waitFor();
    expect(await list.textContent()).toContain("Open the previous or next ticket of the list");
    expect(await list.textContent()).toContain("In the message: suggest a reply with AI");
    // Alt+↑, Alt+↓ and Alt+I.
    expect(await list.locator("kbd", { hasText: "Alt" }).count()).toBe(3);
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: /Keyboard shortcuts/ }).click();
    await list.waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the chat's tag popover narrows its list as one types, and Enter adds the first tag shown", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logInAsAdmin(page);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Tags" }).click();
    await page.getByRole("checkbox", { name: "Urgent" }).waitFor();
    expect(await page.locator(".tag-menu input[type=checkbox]").count()).toBe(3);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Find a tag");
    await page.keyboard.type("ur");
    await page.waitForFunction(() => document.querySelectorAll(".tag-menu input[type=checkbox]").length === 1);
    await page.keyboard.press("Enter");
    await page.locator(".tag-editor > .chip", { hasText: "Urgent" }).waitFor();
    await page.keyboard.type("zz");
    await page.locator(".tag-menu", { hasText: "No tag matches." }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the ticket search shows its whole placeholder at 1440 and 375 px", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logInAsAdmin(page);
    await page.getByRole("tab", { name: "Search" }).click();
    const search = page.getByRole("searchbox", { name: "Search tickets and messages" });
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await settled(page);
      const room = await search.evaluate((el: HTMLInputElement) => {
        const style = getComputedStyle(el);
        const pen = document.createElement("canvas").getContext("2d")!;
        pen.font = style.font;
        const inner = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return inner - pen.measureText(el.placeholder).width;
      });
      expect(room).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
