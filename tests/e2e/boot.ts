import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createApp } from "../../src/app";
import { connections } from "../../src/db/schema";
import { hashPassword } from "../../src/modules/auth/passwords";
import { insertUser } from "../../src/modules/users/service";
import { composeDeps } from "../../src/compose";
import { createLogger } from "../../src/log";
import { BunTopicHub } from "../../src/realtime/hub";
import { testConfig } from "../helpers";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Builds the islands once, boots the whole app in-process on a free port (in-memory db, real socket hub, sandbox channel) and launches chromium. */
export async function bootE2E() {
  // E2E_DEV=1 runs against the development React build, which also reports hydration mismatches.
  const build = Bun.spawnSync(
    ["node_modules/.bin/bun", "scripts/build.ts", ...(process.env.E2E_DEV ? ["--dev"] : [])],
    { cwd: `${import.meta.dir}/../..`, stderr: "pipe" },
  );
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  const config = testConfig({ mediaDir: "/tmp/zapdesk-e2e/media" });
  const hub = new BunTopicHub();
  const { deps, sandbox } = composeDeps({ config, hub, log: createLogger("silent"), clock: { now: () => Date.now() } });
  const app = (await createApp(deps)).listen({ port: 0, hostname: "127.0.0.1" });
  hub.attach(app.server!);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const base = `http://127.0.0.1:${app.server!.port}`;
  return {
    app,
    deps,
    sandbox,
    browser,
    base,
    async stop() {
      await browser.close();
      await app.stop(true);
    },
  };
}

/** A fresh context and page that records console errors, page errors and failed responses. */
export async function openPage(browser: Browser, opts: { locale?: string; width?: number; height?: number } = {}) {
  const context: BrowserContext = await browser.newContext({
    locale: opts.locale ?? "en-US",
    timezoneId: "UTC",
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
  });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    // Chromium logs every 4xx/5xx as "Failed to load resource"; expected refusals (a wrong password's 401) are
    // part of the tested flows, so HTTP failures are judged by the response listener below instead.
    if (m.type() === "error" && m.text().startsWith("Failed to load resource")) return;
    if (m.type() === "error" || (m.type() === "warning" && /hydrat|did not match/i.test(m.text())))
      errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => {
    if (r.status() === 404 || r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
  });
  return { context, page, errors };
}

/** Saves a screenshot for a person to look at, only with E2E_SCREENSHOTS=1 (into test-results/, which git ignores). */
export async function snapshot(target: { screenshot(options: { path: string }): Promise<unknown> }, name: string) {
  if (!process.env.E2E_SCREENSHOTS) return;
  await target.screenshot({ path: `test-results/${name}.png` });
}

/** Signs in through the login form, like a person, and waits for the tickets page. */
export async function logIn(page: Page, base: string, who: { email: string; password: string }) {
  await page.goto(`${base}/login`);
  await page.waitForSelector('[data-island="LoginForm"][data-hydrated="true"]');
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await page.keyboard.press("Enter");
  await page.waitForURL(`${base}/tickets`);
}

type E2E = Awaited<ReturnType<typeof bootE2E>>;

/** A user who can sign in with `who`'s email and password; returns its id. */
export async function addUser(
  env: E2E,
  who: { name: string; email: string; password: string },
  profile: "admin" | "user",
) {
  const passwordHash = await hashPassword(who.password, env.deps.config.passwordHashing);
  return insertUser(env.deps.db, { name: who.name, email: who.email, passwordHash, profile }).id;
}

/** A default sandbox connection, started and scanned (CONNECTED); returns its id. */
export async function addSandboxConnection(env: E2E) {
  const id = env.deps.db
    .insert(connections)
    .values({ name: "Sandbox", provider: "sandbox", isDefault: true })
    .returning()
    .get().id;
  await env.deps.channels.start(id);
  env.sandbox.scan(id);
  return id;
}
