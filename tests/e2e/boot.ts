import { one } from "../../src/db/client";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createApp } from "../../src/app";
import { connections, contacts, messages, tickets } from "../../src/db/tables";
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

const ROOT = join(import.meta.dir, "..", "..");
/** What the islands bundle is built from: a change to any file here makes an existing build stale. */
const BUILD_SOURCES = ["islands", "src", "public", "scripts/build.ts", "package-lock.json"];

/** The newest modification time of a file or of any file under a folder (0 when it does not exist). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true, encoding: "utf8" })) {
    newest = Math.max(newest, statSync(join(path, entry)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the islands only when dist/public holds no build of the wanted kind (E2E_DEV=1: the development React
 * build, which also reports hydration mismatches; its entry is the unhashed client.js) or one older than its
 * sources. The test runners build once before the browser files, so a run does not rebuild per file, while a
 * single file run on its own still gets a current build.
 */
function ensureIslandsBuilt() {
  const dev = Boolean(process.env.E2E_DEV);
  const manifest = join(ROOT, "dist", "public", "islands", "manifest.json");
  if (existsSync(manifest)) {
    const { entry } = JSON.parse(readFileSync(manifest, "utf8")) as { entry: string };
    const sameKind = (entry === "client.js") === dev;
    const built = statSync(manifest).mtimeMs;
    if (sameKind && BUILD_SOURCES.every((source) => newestChange(join(ROOT, source)) <= built)) return;
  }
  const build = Bun.spawnSync(["node_modules/.bin/bun", "scripts/build.ts", ...(dev ? ["--dev"] : [])], {
    cwd: ROOT,
    stderr: "pipe",
  });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
}

/** Boots the whole app in-process on a free port (in-memory db, real socket hub, sandbox channel) with the run's chromium (sharedBrowser), after making sure the islands are built. */
export async function bootE2E(overrides: Partial<Parameters<typeof testConfig>[0]> = {}) {
  ensureIslandsBuilt();
  const config = testConfig({ mediaDir: "/tmp/zapdesk-e2e/media", ...overrides });
  const hub = new BunTopicHub();
  const { deps, sandbox } = await composeDeps({
    config,
    hub,
    log: createLogger("silent"),
    clock: { now: () => Date.now() },
  });
  const app = (await createApp(deps)).listen({ port: 0, hostname: "127.0.0.1" });
  hub.attach(app.server!);
  const browser = await sharedBrowser();
  const base = `http://127.0.0.1:${app.server!.port}`;
  return {
    app,
    deps,
    sandbox,
    browser,
    base,
    /** Stops the app; the browser stays for the next file, without the pages this file left open. */
    async stop() {
      await Promise.all(browser.contexts().map((context) => context.close()));
      await app.stop(true);
    },
  };
}

let launched: Promise<Browser> | undefined;

/**
 * One chromium for every browser test file of the process (a `bun test` run loads them all in one), launched on
 * first use: a launch costs a second or more on a loaded machine, while each test's fresh context (openPage)
 * keeps tests apart as a browser of their own would. Playwright ends it when the process exits.
 */
async function sharedBrowser(): Promise<Browser> {
  // A browser that crashed or failed to start is replaced, so one file's crash does not fail the files after it.
  const running = await launched?.catch(() => undefined);
  if (running?.isConnected()) return running;
  launched = chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  return await launched;
}

/**
 * Runs in the page: any text that reaches the screen with a server error code in it (a toast, a field message, a
 * dialog) is reported as a console error, so every browser test fails when a code is shown untranslated.
 */
function reportRawErrorCodes() {
  const code = /\bERR_[A-Z0-9_]+/;
  const hidden = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"]);
  const checkText = (text: Node) => {
    if (hidden.has(text.parentElement?.tagName ?? "")) return;
    const value = text.textContent ?? "";
    if (code.test(value)) console.error(`untranslated error code on screen: ${value.trim().slice(0, 200)}`);
  };
  const check = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) return checkText(node);
    if (node.nodeType !== Node.ELEMENT_NODE || hidden.has((node as Element).tagName)) return;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) checkText(text);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "characterData") check(record.target);
      for (const node of record.addedNodes) check(node);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/** A fresh context and page (a touch phone with `touch`) that records console errors, page errors and failed responses. */
export async function openPage(
  browser: Browser,
  opts: { locale?: string; width?: number; height?: number; colorScheme?: "light" | "dark"; touch?: boolean } = {},
) {
  const context: BrowserContext = await browser.newContext({
    locale: opts.locale ?? "en-US",
    timezoneId: "UTC",
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? "light",
    // A phone: touch instead of a mouse, so `(hover: none)` holds.
    ...(opts.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page: Page = await context.newPage();
  await page.addInitScript(reportRawErrorCodes);
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

/**
 * Signs in as the login form does: its POST /auth/login leaves the session's cookie in the page's context, so
 * the page's next load is signed in. The form itself is tested in web.e2e.ts.
 */
export async function signIn(page: Page, base: string, who: { email: string; password: string }) {
  const login = await page.request.post(`${base}/api/auth/login`, {
    data: { email: who.email, password: who.password },
  });
  if (!login.ok()) throw new Error(`login as ${who.email}: ${login.status()}`);
}

/** Signs in and opens the tickets page, where the login form sends a person. */
export async function logIn(page: Page, base: string, who: { email: string; password: string }) {
  await signIn(page, base, who);
  await page.goto(`${base}/tickets`);
  if (page.url() !== `${base}/tickets`) throw new Error(`signed in as ${who.email}, /tickets led to ${page.url()}`);
}

type E2E = Awaited<ReturnType<typeof bootE2E>>;

/** A user who can sign in with `who`'s email and password; returns its id. */
export async function addUser(
  env: E2E,
  who: { name: string; email: string; password: string },
  profile: "admin" | "user",
) {
  const passwordHash = await hashPassword(who.password, env.deps.config.passwordHashing);
  return (await insertUser(env.deps.db, { name: who.name, email: who.email, passwordHash, profile })).id;
}

/** A default sandbox connection, started and scanned (CONNECTED); returns its id. */
export async function addSandboxConnection(env: E2E) {
  const id = (
    await one(
      env.deps.db.insert(connections).values({ name: "Sandbox", provider: "sandbox", isDefault: true }).returning(),
    )
  ).id;
  await env.deps.channels.start(id);
  await env.sandbox.scan(id);
  return id;
}

/**
 * A new contact's ticket held by `userId`, last active `hoursAgo`, with `bodies` the contact wrote (a second
 * apart, the last one at that time); they count as unread when `unread` is set. Returns the ticket's id.
 */
export async function addTicket(
  env: E2E,
  t: {
    name: string;
    number: string;
    whatsappId: number;
    userId: number;
    status?: "open" | "closed";
    hoursAgo?: number;
    bodies?: string[];
    unread?: boolean;
  },
): Promise<number> {
  const { status = "open", hoursAgo = 1, bodies = [], unread = false } = t;
  const db = env.deps.db;
  const at = Date.now() - hoursAgo * 3_600_000;
  const contactId = (await one(db.insert(contacts).values({ name: t.name, number: t.number }).returning())).id;
  const ticketId = (
    await one(
      db
        .insert(tickets)
        .values({
          status,
          contactId,
          whatsappId: t.whatsappId,
          userId: t.userId,
          lastMessage: bodies.at(-1) ?? "",
          unreadMessages: unread ? bodies.length : 0,
          updatedAt: new Date(at),
        })
        .returning(),
    )
  ).id;
  if (bodies.length)
    await db.insert(messages).values(
      bodies.map((body, i) => ({
        wid: `${t.number}-${i}`,
        whatsappId: t.whatsappId,
        ticketId,
        contactId,
        body,
        read: !unread,
        createdAt: new Date(at - (bodies.length - 1 - i) * 1000),
      })),
    );
  return ticketId;
}

/**
 * Counts what the page's MediaRecorder produces in `window.__recordedBytes`: it hands over its data every 100 ms
 * instead of only at the end (the recording is the same), so a test waits for enough bytes, not for a clock.
 */
export async function countRecordedBytes(page: Page) {
  await page.addInitScript(() => {
    const counted = window as Window & { __recordedBytes?: number };
    const Recorder = window.MediaRecorder;
    counted.__recordedBytes = 0;
    window.MediaRecorder = class extends Recorder {
      override start(timeslice?: number) {
        counted.__recordedBytes = 0;
        this.addEventListener("dataavailable", (e) => {
          counted.__recordedBytes = (counted.__recordedBytes ?? 0) + e.data.size;
        });
        super.start(timeslice ?? 100);
      }
    };
  });
}
