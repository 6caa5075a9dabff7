import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import en from "../../src/i18n/locales/en.json";
import es from "../../src/i18n/locales/es.json";
import pt from "../../src/i18n/locales/pt.json";
import { waitFor } from "../wait-for";
import { addSandboxConnection, addUser, bootE2E, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const PASSWORD = "secret-123";
const ADA = { name: "Ada Admin", email: "ada@example.com", password: PASSWORD };
const AGENTS = ["Ana", "Bia", "Caio"].map((name) => ({
  name,
  email: `${name.toLowerCase()}@example.com`,
  password: PASSWORD,
}));
const CUSTOMER = (n: number) => `55119770000${n}`;

let storyTicket: number;

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${env.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function tokenOf(who: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  return ((await res.json()) as { token: string }).token;
}

/**
 * The team's story through the API: a round-robin queue capped at 2 with three agents online, 7 customers at
 * once, Ana's first ticket answered and transferred to Caio, resolved, rated 5 with a comment, reopened by the
 * customer (waiting: everyone is at the cap), snoozed and brought back by Ada.
 */
beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADA, "admin");
  const admin = await tokenOf(ADA);
  const queue = await api("POST", "/api/queue", admin, {
    name: "Support",
    color: "#43a047",
    assignment: "round_robin",
    maxOpenPerAgent: 2,
  });
  const whatsappId = await addSandboxConnection(env);
  await api("PUT", `/api/whatsapp/${whatsappId}`, admin, {
    queueIds: [queue.id],
    csatEnabled: true,
    csatMessage: "Rate us, {{name}}: 1 to 5",
  });
  const agents: { id: number; token: string }[] = [];
  for (const who of AGENTS) {
    const id = await addUser(env, who, "user");
    await api("PUT", `/api/users/${id}`, admin, { queueIds: [queue.id] });
    const token = await tokenOf(who);
    await api("PUT", `/api/users/${id}/availability`, token, { availability: "online" });
    agents.push({ id, token });
  }
  const [ana, , caio] = agents as [(typeof agents)[0], (typeof agents)[0], (typeof agents)[0]];
  const write = (n: number, body: string) =>
    api("POST", `/api/sandbox/${whatsappId}/inbound`, admin, { from: CUSTOMER(n), name: `Customer ${n}`, body });

  await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => write(n, "Hello, I need help")));
  const held = await waitFor(async () => {
    const { tickets } = await api("GET", "/api/tickets?showAll=true&status=open", admin);
    return tickets.length === 6 && (tickets as { id: number; userId: number; contact: { number: string } }[]);
  });
  const story = held.find((t) => t.userId === ana.id)!;
  storyTicket = story.id;
  const customer = Number(story.contact.number.slice(-1));

  await api("POST", `/api/messages/${storyTicket}`, ana.token, { body: "Hi, Ana here" });
  await api("PUT", `/api/tickets/${storyTicket}`, ana.token, { userId: caio.id });
  await api("PUT", `/api/tickets/${storyTicket}`, caio.token, { status: "closed" });
  await write(customer, "5");
  await write(customer, "Caio was great");
  await write(customer, "It broke again");
  // Everyone is at the cap again (Ana took the seventh customer when she handed hers over): it waits.
  await waitFor(async () => (await api("GET", `/api/tickets/${storyTicket}`, admin)).status === "pending");
  await api("POST", `/api/tickets/${storyTicket}/snooze`, admin, {
    until: new Date(Date.now() + 3_600_000).toISOString(),
  });
  await api("DELETE", `/api/tickets/${storyTicket}/snooze`, admin);
}, 60_000);

afterAll(async () => {
  await env?.stop();
});

const LOCALES = { en: "en-US", pt: "pt-BR", es: "es-ES" } as const;
type Lang = keyof typeof LOCALES;
const DICTIONARIES = { en, pt, es } as Record<Lang, Record<string, unknown>>;

/** Every leaf of a dictionary, by its dotted key. */
function leaves(dictionary: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(dictionary)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else if (value && typeof value === "object")
      for (const [k, v] of leaves(value as Record<string, unknown>, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/**
 * Texts on the page that are a raw key ("reports.title"), or, outside English, an English text whose key has
 * its own translation in `lang` (what i18next's fallback shows for a missing one).
 */
async function untranslated(page: Page, lang: Lang) {
  const english = leaves(en);
  const own = leaves(DICTIONARIES[lang]);
  const keys = new Set(english.keys());
  const fallbacks =
    lang === "en"
      ? new Set<string>()
      : new Set([...english].filter(([k, v]) => own.has(k) && own.get(k) !== v && !/{{/.test(v)).map(([, v]) => v));
  for (const [, v] of own) fallbacks.delete(v);
  const texts: string[] = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const out: string[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || ["SCRIPT", "STYLE"].includes(el.tagName) || !el.checkVisibility()) continue;
      const text = (n.textContent ?? "").trim();
      if (text) out.push(text);
    }
    for (const el of document.querySelectorAll("[aria-label],[placeholder],[title]"))
      for (const attr of ["aria-label", "placeholder", "title"]) {
        const value = el.getAttribute(attr);
        if (value) out.push(value);
      }
    return out;
  });
  return texts.filter((t) => keys.has(t) || fallbacks.has(t));
}

/** The page from top to bottom, for a person looking at the screenshots. */
const wholePage = (page: Page) => ({
  screenshot: (options: { path: string }) => page.screenshot({ ...options, fullPage: true }),
});

describe("/reports for a team lead", () => {
  for (const lang of ["en", "pt", "es"] as const)
    for (const colorScheme of ["light", "dark"] as const)
      test(`renders the team's figures in ${lang}, ${colorScheme}, wide and at 375 px: no overflow, no untranslated text, no errors`, async () => {
        for (const width of [1280, 375]) {
          const view = await openPage(env.browser, { locale: LOCALES[lang], width, height: 800, colorScheme });
          await signIn(view.page, env.base, ADA);
          await view.page.goto(`${env.base}/reports`);
          await view.page.waitForSelector('[data-island="AgentReports"][data-hydrated="true"]');
          const rows = view.page.locator("section.report-table").first().locator("tbody tr");
          await rows.first().waitFor();
          // Ada and the three agents; the queue's table has Support with its 7 tickets.
          expect(await rows.count()).toBe(4);
          const queueRow = view.page.locator("section.report-table").nth(1).locator("tbody tr").first();
          expect(await queueRow.textContent()).toContain("Support");
          expect(await queueRow.locator('[data-figure="created"]').textContent()).toBe("7");
          // Its last line (no total below it) draws no rule across the card's rounded bottom.
          const rule = await queueRow.locator("th").evaluate((th) => getComputedStyle(th).borderBottomWidth);
          expect(rule).toBe("0px");
          expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          expect(await untranslated(view.page, lang)).toEqual([]);
          // The charts' day labels stay readable when the charts shrink to a phone's width.
          const tickPx = await view.page
            .locator(".report-chart .tick")
            .first()
            .evaluate((el) => el.getBoundingClientRect().height);
          expect(tickPx).toBeGreaterThanOrEqual(10);
          // The first response chart's scale label is inside its chart, whatever its size.
          const [label, chart] = await view.page
            .locator(".report-chart svg")
            .nth(1)
            .evaluate((svg) => [
              svg.querySelector(".tick")!.getBoundingClientRect().top,
              svg.getBoundingClientRect().top,
            ]);
          expect(label!).toBeGreaterThanOrEqual(chart!);
          await snapshot(wholePage(view.page), `e2e-team-reports-${lang}-${colorScheme}-${width}`);
          expect(view.errors).toEqual([]);
          await view.context.close();
        }
      }, 60_000);
});

const SEPARATORS: Record<Lang, RegExp[]> = {
  // Support is the connection's only queue: no menu was shown, the ticket was routed there.
  en: [
    /^Routed to Support · \d{2}:\d{2}$/,
    /^Assigned automatically to Ana/,
    /^Transferred to Caio by Ana/,
    /^Resolved by Caio/,
    /^Rated 5\/5 by the customer/,
    /^Reopened by the customer/,
    /^Snoozed by Ada Admin/,
    /^Unsnoozed by Ada Admin/,
  ],
  pt: [
    /^Encaminhado para Support/,
    /^Atribuído automaticamente a Ana/,
    /^Transferido para Caio por Ana/,
    /^Resolvido por Caio/,
    /^Avaliado com 5\/5 pelo cliente/,
    /^Reaberto pelo cliente/,
    /^Adiado por Ada Admin/,
    /^Adiamento cancelado por Ada Admin/,
  ],
  es: [
    /^Encaminado a Support/,
    /^Asignado automáticamente a Ana/,
    /^Transferido a Caio por Ana/,
    /^Resuelto por Caio/,
    /^Calificado con 5\/5 por el cliente/,
    /^Reabierto por el cliente/,
    /^Pospuesto por Ada Admin/,
    /^Posposición cancelada por Ada Admin/,
  ],
};

describe("the story's chat", () => {
  test("shows the ticket's history as translated separators, in order, in en, pt and es at 375 px", async () => {
    for (const lang of ["en", "pt", "es"] as const) {
      const view = await openPage(env.browser, { locale: LOCALES[lang], width: 375, height: 800 });
      await signIn(view.page, env.base, ADA);
      await view.page.goto(`${env.base}/tickets/${storyTicket}`);
      await view.page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
      const separators = view.page.locator(".event-separator");
      await separators.last().waitFor();
      const texts = await separators.allTextContents();
      expect(texts).toHaveLength(SEPARATORS[lang].length);
      SEPARATORS[lang].forEach((pattern, i) => expect(texts[i]).toMatch(pattern));
      expect(await untranslated(view.page, lang)).toEqual([]);
      expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await snapshot(wholePage(view.page), `e2e-team-chat-${lang}`);
      expect(view.errors).toEqual([]);
      await view.context.close();
    }
  }, 60_000);
});

describe("the dashboard's team", () => {
  test("shows who is online and each agent's open tickets, translated, in light and dark, at 375 px", async () => {
    for (const lang of ["en", "pt", "es"] as const)
      for (const colorScheme of ["light", "dark"] as const) {
        const view = await openPage(env.browser, { locale: LOCALES[lang], width: 375, height: 800, colorScheme });
        await signIn(view.page, env.base, ADA);
        await view.page.goto(`${env.base}/`);
        await view.page.waitForSelector('[data-island="AgentDashboard"][data-hydrated="true"]');
        const rows = view.page.locator(".team-table tbody tr");
        await rows.first().waitFor();
        // Ada and the three agents, the agents holding 2 each (the story's ticket waits).
        expect(await rows.count()).toBe(4);
        const open = (await view.page.locator(".team-table tbody td.team-open").allTextContents()).map(Number);
        expect(open.sort()).toEqual([0, 2, 2, 2]);
        expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        expect(await untranslated(view.page, lang)).toEqual([]);
        await snapshot(wholePage(view.page), `e2e-team-dashboard-${lang}-${colorScheme}`);
        expect(view.errors).toEqual([]);
        await view.context.close();
      }
  }, 60_000);
});
