import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import en from "../../src/i18n/locales/en.json";
import { addSandboxConnection, addUser, bootE2E, logIn, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let token: string;
let ticketId: number;
const ADMIN = { name: "Ada Admin", email: "ada@example.com", password: "secret-123" };
const CUSTOMER = "Bartholomew Maximilian Fitzgerald-Montgomery";

/** Every screen of the app frame an admin can open, the tickets list and a chat apart. */
const SCREENS = [
  "/",
  "/contacts",
  "/quickAnswers",
  "/schedules",
  "/users",
  "/Queues",
  "/connections",
  "/tags",
  "/Settings",
  "/webhooks",
  "/BulkMessage",
  "/ShippingReport",
  "/SettingsMessage",
];

let phone: Awaited<ReturnType<typeof openPage>>;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: each caller reads the fields of the answer it expects
  return (await res.json()) as any;
}

/** Opens a page and waits until its islands are hydrated and no list is still loading. */
async function visit(page: Page, path: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("[data-island]")].every((el) => el.getAttribute("data-hydrated") === "true") &&
      !/Loading…|Carregando…/.test(document.querySelector("main")?.textContent ?? ""),
  );
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The body's background as a 0–255 lightness (the mean of its red, green and blue). */
async function bodyLightness(page: Page) {
  const rgb = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+/g) ?? []).map(Number);
  return (r + g + b) / 3;
}

beforeAll(async () => {
  env = await bootE2E();
  const adminId = await addUser(env, ADMIN, "admin");
  const whatsappId = await addSandboxConnection(env);
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  // Long names and texts: what a narrow screen has to wrap rather than widen for.
  await api("POST", "/queue", { name: "Atendimento ao cliente de longa duração", color: "#1e88e5" });
  await api("POST", "/tags", { name: "Cliente preferencial com nome comprido", color: "#e53935" });
  await api("POST", "/quickAnswers", {
    shortcut: "horario-loja",
    message: "Atendemos de segunda a sexta, das 8h às 18h, e aos sábados das 9h às 13h, exceto feriados nacionais.",
  });
  await api("POST", "/webhooks", {
    url: "https://hooks.example.com/zapdesk/a-very-long-path/that-keeps-going/and-going?with=query&string=true",
    events: ["message.received"],
  });
  await addUser(
    env,
    { name: "Lia Longname da Silva Pereira", email: "lia.longname@example.com", password: "x" },
    "user",
  );
  const contact = await api("POST", "/contacts", { name: CUSTOMER, number: "5511977776666" });
  const ticket = await api("POST", "/tickets", { contactId: contact.id, status: "open", userId: adminId });
  ticketId = ticket.id;
  await env.sandbox.inbound(whatsappId, {
    from: "5511977776666",
    body: "Olá! Gostaria de saber o prazo de entrega do pedido número 123456789012345678901234567890.",
  });
  phone = await openPage(env.browser, { width: 375, height: 800 });
  await logIn(phone.page, env.base, ADMIN);
}, 30_000);

beforeEach(() => {
  phone.errors.length = 0;
});

afterAll(async () => {
  await env?.stop();
});

describe("the phone layout", () => {
  test("at 375 px no screen is wider than the phone and the closed drawer casts no shadow", async () => {
    const { page, errors } = phone;
    const widths: Record<string, number> = {};
    for (const path of ["/tickets", `/tickets/${ticketId}`, ...SCREENS]) {
      await visit(page, path);
      widths[path] = await pageWidth(page);
      await snapshot(page, `e2e-phone${path.replaceAll("/", "-")}`);
    }
    expect(Object.entries(widths).filter(([, w]) => w > 375)).toEqual([]);
    expect(await page.locator(".drawer").evaluate((el) => getComputedStyle(el).boxShadow)).toBe("none");
    expect(errors).toEqual([]);
  }, 60_000);

  test("at 375 px the tickets search tab and its filters do not widen the page", async () => {
    const { page, errors } = phone;
    await visit(page, "/tickets");
    await page.getByRole("tab", { name: "Search" }).click();
    await page.getByRole("searchbox").or(page.locator(".filters .search")).first().fill("Bartholomew");
    await page.locator(".ticket-row", { hasText: CUSTOMER }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await snapshot(page, "e2e-phone-search");
    expect(errors).toEqual([]);
  });

  test("a phone shows the list or the chat; the chat header keeps the name visible, its actions in one menu, and its back button returns to the list", async () => {
    const { page, errors } = phone;
    await visit(page, `/tickets/${ticketId}`);
    expect(await page.locator(".tickets-list-pane").isVisible()).toBe(false);
    const name = page.locator(".chat-title strong");
    expect((await name.boundingBox())!.width).toBeGreaterThan(0);
    // One row: every visible control in the header shares the same vertical centre.
    const centres = await page
      .locator(".chat-header")
      .evaluate((header) =>
        [...header.querySelectorAll("a, button")]
          .filter((el) => (el as HTMLElement).offsetParent !== null && !el.closest(".chat-title"))
          .map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2)),
      );
    expect(new Set(centres).size).toBe(1);
    expect(await page.getByRole("button", { name: "Resolve" }).count()).toBe(0);
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("menuitem", { name: "Resolve" }).waitFor();
    await page.keyboard.press("Escape");

    await page.getByRole("link", { name: "Back to tickets" }).click();
    await page.waitForURL(`${env.base}/tickets`);
    await page.locator(".ticket-row", { hasText: CUSTOMER }).waitFor();
    expect(await page.locator(".tickets-list-pane").isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  test("in Portuguese at 375 px the tickets list, its search tab and a chat fit the phone", async () => {
    const { page, errors, context } = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 800 });
    await signIn(page, env.base, ADMIN);
    await visit(page, "/tickets");
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await page.getByRole("tab", { name: "Busca" }).click();
    await page.locator(".filters .chip-button").first().waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await visit(page, `/tickets/${ticketId}`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await page.getByRole("button", { name: "Mais ações" }).click();
    await page.getByRole("menuitem", { name: "Resolver" }).waitFor();
    await snapshot(page, "e2e-phone-chat-menu-pt");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("at 1440 px the search tab's filter chips stay inside the list pane", async () => {
    const { page, errors, context } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await visit(page, `/tickets/${ticketId}`);
    await page.getByRole("tab", { name: "Search" }).click();
    await page.locator(".filters .chip-button").first().waitFor();
    const pane = (await page.locator(".tickets-list-pane").boundingBox())!;
    const rights = await page
      .locator(".filters > *")
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right));
    expect(rights.every((right) => right <= pane.x + pane.width)).toBe(true);
    await snapshot(page, "e2e-desktop-search-1440");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("dark mode", () => {
  test("follows a dark system setting, and the user menu's choice overrides it and survives a reload", async () => {
    const { page, errors, context } = await openPage(env.browser, { colorScheme: "dark" });
    await signIn(page, env.base, ADMIN);
    await visit(page, `/tickets/${ticketId}`);
    expect(await bodyLightness(page)).toBeLessThan(64);
    await snapshot(page, "e2e-dark-chat-1440");

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitemradio", { name: "Light" }).click();
    expect(await bodyLightness(page)).toBeGreaterThan(192);
    await page.reload();
    await page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
    expect(await bodyLightness(page)).toBeGreaterThan(192);
    await page.getByRole("button", { name: "User menu" }).click();
    expect(await page.getByRole("menuitemradio", { name: "Light" }).getAttribute("aria-checked")).toBe("true");

    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await page.reload();
    expect(await bodyLightness(page)).toBeLessThan(64);
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitemradio", { name: "System" }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await bodyLightness(page)).toBeLessThan(64);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("with a dark system setting every screen paints dark", async () => {
    const { page, errors, context } = await openPage(env.browser, { colorScheme: "dark" });
    await logIn(page, env.base, ADMIN);
    const light: string[] = [];
    for (const path of ["/tickets", `/tickets/${ticketId}`, ...SCREENS]) {
      await visit(page, path);
      if ((await bodyLightness(page)) >= 64) light.push(path);
      await snapshot(page, `e2e-dark${path.replaceAll("/", "-")}`);
    }
    expect(light).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  test("a light system setting keeps the page light until dark is chosen", async () => {
    const { page, errors, context } = await openPage(env.browser, { width: 375, height: 800 });
    await logIn(page, env.base, ADMIN);
    expect(await bodyLightness(page)).toBeGreaterThan(192);
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await page.reload();
    await visit(page, "/tickets");
    expect(await bodyLightness(page)).toBeLessThan(64);
    await snapshot(page, "e2e-dark-tickets-375");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("every screen in Portuguese", () => {
  /** A translation key shown instead of its text, e.g. "chat.placeholder". */
  const rawKey = new RegExp(`\\b(${Object.keys(en).join("|")})\\.[a-zA-Z]+`);

  for (const width of [1440, 375]) {
    test(`at ${width} px every screen reads in Portuguese, with no raw key, and fits the screen`, async () => {
      const { page, errors, context } = await openPage(env.browser, { locale: "pt-BR", width, height: 900 });
      await logIn(page, env.base, ADMIN);
      const leaks: Record<string, string> = {};
      const wide: string[] = [];
      for (const path of ["/tickets", `/tickets/${ticketId}`, ...SCREENS]) {
        await visit(page, path);
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text a person sees
        const leak = (await page.innerText("body")).match(rawKey);
        if (leak) leaks[path] = leak[0];
        if ((await pageWidth(page)) > width) wide.push(path);
        await snapshot(page, `e2e-pt-${width}${path.replaceAll("/", "-")}`);
      }
      expect(leaks).toEqual({});
      expect(wide).toEqual([]);
      expect(await page.getAttribute("html", "lang")).toBe("pt");
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
