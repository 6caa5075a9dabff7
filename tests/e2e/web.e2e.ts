import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hashPassword } from "../../src/modules/auth/passwords";
import { updateSetting } from "../../src/modules/settings/service";
import { insertUser } from "../../src/modules/users/service";
import { bootE2E, openPage, snapshot, logIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "ana@example.com", password: "secret-123", name: "Ana Admin" };
const AGENT = { email: "bia@example.com", password: "secret-456", name: "Bia Agent" };

beforeAll(async () => {
  env = await bootE2E();
  const cost = env.deps.config.passwordHashing;
  await insertUser(env.deps.db, {
    name: ADMIN.name,
    email: ADMIN.email,
    passwordHash: await hashPassword(ADMIN.password, cost),
    profile: "admin",
  });
  await insertUser(env.deps.db, {
    name: AGENT.name,
    email: AGENT.email,
    passwordHash: await hashPassword(AGENT.password, cost),
    profile: "user",
  });
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function logInAndWait(page: import("playwright-core").Page, who: { email: string; password: string }) {
  await logIn(page, env.base, who);
  await page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
}

describe("browser", () => {
  test("login via the form validates fields, refuses bad credentials, then lands on /tickets", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await page.goto(`${env.base}/login`);
    await page.waitForSelector('[data-island="LoginForm"][data-hydrated="true"]');
    await page.click('button[type="submit"]');
    expect(await page.locator(".field-error").allTextContents()).toEqual(["Required", "Required"]);

    await page.fill("#email", ADMIN.email);
    await page.fill("#password", "wrong-password");
    await page.click('button[type="submit"]');
    await page.waitForSelector(".toast-error");
    expect(await page.textContent(".toast-error")).toBe("Authentication error. Please try again.");

    await page.click('button[aria-label="Show password"]');
    expect(await page.getAttribute("#password", "type")).toBe("text");
    await page.fill("#password", ADMIN.password);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${env.base}/tickets`);
    await page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
    expect(await page.textContent(".drawer")).toContain("Administration");
    await snapshot(page, "e2e-tickets-1440");

    // A logged-in user opening /login is sent to /.
    await page.goto(`${env.base}/login`);
    expect(new URL(page.url()).pathname).toBe("/");

    // Logout from the user menu ends the session.
    await page.click('button[aria-label="User menu"]');
    await page.click('text="Logout"');
    await page.waitForURL(`${env.base}/login`);
    await page.goto(`${env.base}/tickets`);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("Portuguese and Spanish render without missing keys, and the language menu switches", async () => {
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await page.goto(`${env.base}/login`);
    await page.waitForSelector('[data-island="LoginForm"][data-hydrated="true"]');
    expect(await page.getAttribute("html", "lang")).toBe("pt");
    expect(await page.textContent("body")).toContain("Senha");
    await snapshot(page, "e2e-login-pt");
    await logInAndWait(page, AGENT);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text a person sees
    const body = await page.innerText(".app");
    expect(body).toContain("Atendimentos");
    expect(body).not.toContain("Administração");
    expect(body).not.toMatch(/\b(drawer|menu|page|login)\.[a-zA-Z]+/);

    await page.click('button[aria-label="Menu do usuário"]');
    await page.click('text="Español"');
    await page.waitForSelector('html[lang="es"]');
    await page.waitForSelector('[data-island="UserMenu"][data-hydrated="true"]');
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text a person sees
    const es = await page.innerText(".app");
    expect(es).toContain("Contactos");
    expect(es).not.toMatch(/\b(drawer|menu|page|login)\.[a-zA-Z]+/);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("at 375 px the drawer is temporary and opens from the app bar; signup shows its disabled notice", async () => {
    const { context, page, errors } = await openPage(env.browser, { width: 375, height: 740 });
    await page.goto(`${env.base}/signup`);
    await page.waitForSelector('[data-island="SignupForm"][data-hydrated="true"]');
    expect(await page.textContent(".notice")).toContain("Sign up is disabled");
    await logInAndWait(page, ADMIN);
    const drawer = page.locator("#drawer");
    expect(await drawer.isVisible()).toBe(true);
    expect((await drawer.boundingBox())!.x).toBeLessThan(0);
    await page.waitForSelector('[data-island="NavToggle"][data-hydrated="true"]');
    await page.click('button[aria-label="Open menu"]');
    await page.waitForFunction(() => document.querySelector("#drawer")!.getBoundingClientRect().x >= 0);
    await snapshot(page, "e2e-drawer-375");
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("signup through the form when user creation is on", async () => {
    await updateSetting(env.deps, "userCreation", "enabled");
    const { context, page, errors } = await openPage(env.browser);
    await page.goto(`${env.base}/signup`);
    await page.waitForSelector('[data-island="SignupForm"][data-hydrated="true"]');
    await page.fill("#name", "C");
    await page.fill("#email", "not-an-email");
    await page.click('button[type="submit"]');
    expect(await page.locator(".field-error").allTextContents()).toEqual(["Too Short!", "Invalid email", "Required"]);
    await page.fill("#name", "Carla");
    await page.fill("#email", "carla@example.com");
    await page.fill("#password", "secret-789");
    await page.click('button[type="submit"]');
    await page.waitForURL(`${env.base}/login`);
    await logInAndWait(page, { email: "carla@example.com", password: "secret-789" });
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("L8: the profile modal asks for the current password before changing it", async () => {
    const dani = { email: "dani@example.com", password: "secret-321" };
    await insertUser(env.deps.db, {
      name: "Dani Agent",
      email: dani.email,
      passwordHash: await hashPassword(dani.password, env.deps.config.passwordHashing),
      profile: "user",
    });
    const { context, page, errors } = await openPage(env.browser);
    await logInAndWait(page, dani);
    await page.click('button[aria-label="User menu"]');
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const profile = page.getByRole("dialog", { name: "My profile" });
    expect(await profile.getByLabel("Current password").count()).toBe(0);
    await profile.getByLabel("New password").fill("secret-654");
    await profile.getByLabel("Current password").fill("not-my-password");
    await profile.getByRole("button", { name: "Save" }).click();
    await profile.locator(".field-error", { hasText: "The current password is not correct." }).waitFor();
    await profile.getByLabel("Current password").fill(dani.password);
    await profile.getByRole("button", { name: "Save" }).click();
    await profile.waitFor({ state: "hidden" });
    // A new password of one's own keeps this device signed in (the user's other sessions end).
    await page.reload();
    await page.locator('button[aria-label="User menu"]').waitFor();
    expect(new URL(page.url()).pathname).not.toBe("/login");
    const login = await page.request.post(`${env.base}/api/auth/login`, {
      data: { email: dani.email, password: "secret-654" },
    });
    expect(login.status()).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("an error code that reaches the screen untranslated counts as a page error in every browser test", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await page.goto(`${env.base}/login`);
    await page.waitForSelector('[data-island="LoginForm"][data-hydrated="true"]');
    expect(errors).toEqual([]);
    const reported = page.waitForEvent("console", (m) => m.text().startsWith("untranslated error code"));
    await page.evaluate(() => {
      const toast = document.createElement("div");
      toast.setAttribute("role", "alert");
      toast.textContent = "ERR_INVALID_CREDENTIALS";
      document.body.append(toast);
    });
    await reported;
    expect(errors).toEqual(["untranslated error code on screen: ERR_INVALID_CREDENTIALS"]);
    await context.close();
  });
});
