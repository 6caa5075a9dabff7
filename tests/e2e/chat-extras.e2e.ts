import { one, first } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium } from "playwright-core";
import { eq } from "drizzle-orm";
import { contacts, messages, tickets, connections } from "../../src/db/tables";
import type { ConnectionManager } from "../../src/channels/manager";
import { join } from "node:path";
import { settleMedia } from "../../src/modules/messages/inbound-media";
import { makePrivateDir, writePrivateFile } from "../../src/private-files";
import { MIN_RECORDING_BYTES } from "../../islands/agent/VoiceRecorder";
import { bootE2E, CHROMIUM_ARGS, openPage, addUser, addSandboxConnection, countRecordedBytes, signIn } from "./boot";

const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "eva@example.com", password: "secret-123", name: "Eva Agent" };

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** A contact with a closed older ticket and an open one of the admin, one message in each. */
async function seedContact(number: string, name: string) {
  const db = env.deps.db;
  const contactId = (await one(db.insert(contacts).values({ name, number }).returning())).id;
  const old = (
    await one(db.insert(tickets).values({ status: "closed", contactId, whatsappId, userId: adminId }).returning())
  ).id;
  await db
    .insert(messages)
    .values({ wid: `old-${number}`, whatsappId, ticketId: old, contactId, body: "Mensagem antiga" });
  const current = (
    await one(db.insert(tickets).values({ status: "open", contactId, whatsappId, userId: adminId }).returning())
  ).id;
  await db
    .insert(messages)
    .values({ wid: `new-${number}`, whatsappId, ticketId: current, contactId, body: "Mensagem nova" });
  return { old, current };
}

describe("chat extras", () => {
  test("the history shows a ticket-number separator where the ticket changes", async () => {
    const { old, current } = await seedContact("5511955554444", "Gabi Histórico");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${current}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble", { hasText: "Mensagem nova" }).waitFor();
    const separators = page.locator(".ticket-separator");
    expect(await separators.count()).toBe(1);
    expect(await separators.textContent()).toBe(`Ticket #${current}`);
    // The separator sits between the old ticket's message and the new one's.
    const order = await page.$$eval(".messages > *", (els) =>
      els.map((e) =>
        e.classList.contains("ticket-separator")
          ? "sep"
          : e.classList.contains("bubble")
            ? e.textContent?.includes("antiga")
              ? "old"
              : "new"
            : "other",
      ),
    );
    expect(order.filter((x) => x !== "other")).toEqual(["old", "sep", "new"]);
    expect(old).toBeLessThan(current);
    expect(errors).toEqual([]);
    await context.close();
  }, 15_000);

  test("an image still downloading shows a spinner, then the picture as soon as its file is stored", async () => {
    const { current } = await seedContact("5511900007777", "Júlia Foto");
    const ticket = (await first(env.deps.db.select().from(tickets).where(eq(tickets.id, current))))!;
    await env.deps.db.insert(messages).values({
      wid: "IMG-E2E",
      whatsappId,
      ticketId: current,
      contactId: ticket.contactId,
      body: "",
      mediaType: "image",
      mediaMime: "image/png",
      fileName: "foto.png",
      mediaState: "downloading",
    });
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${current}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble .media-state", { hasText: "Baixando…" }).waitFor();
    expect(await page.locator(".bubble .spinner").count()).toBe(1);

    makePrivateDir(env.deps.config.mediaDir);
    const fileName = `${crypto.randomUUID()}.png`;
    await writePrivateFile(join(env.deps.config.mediaDir, fileName), PNG_1PX);
    await settleMedia(env.deps, whatsappId, "IMG-E2E", {
      media: { fileName, originalName: "foto.png", mimetype: "image/png" },
    });
    await page.locator(".bubble img.media-image").waitFor();
    expect(await page.locator(".bubble .spinner").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 15_000);

  test("the sign toggle persists and prefixes the sent body with the bold user name", async () => {
    const { current } = await seedContact("5511944443333", "Hugo Assinatura");
    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${current}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const toggle = page.getByRole("button", { name: "Sign messages" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.fill("Assinado");
    await input.press("Enter");
    const bubble = page.locator(".bubble.me", { hasText: "Assinado" });
    await bubble.waitFor();
    expect(await bubble.locator("strong").textContent()).toBe(`${ADMIN.name}:`);
    const sent = (await env.deps.db.select().from(messages)).find((m) => m.ticketId === current && m.fromMe);
    expect(sent?.body).toBe(`*${ADMIN.name}:*\nAssinado`);

    await page.reload();
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.waitForSelector('button[aria-label="Sign messages"][aria-pressed="true"]');
    await toggle.click();
    expect(await page.evaluate(() => localStorage.getItem("zapdesk.signMessage"))).toBe("false");
    expect(errors).toEqual([]);
    await context.close();
  }, 15_000);

  test("the microphone records a voice note: one under the minimum size is discarded, a long-enough one is uploaded as audio-record-site-*.mp3", async () => {
    const { current } = await seedContact("5511933332222", "Iris Voz");
    // Fake capture devices only for this test: chromium grants the microphone and feeds it a beep.
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [...CHROMIUM_ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
    });
    try {
      const { context, page, errors } = await openPage(browser, { locale: "en-US" });
      await countRecordedBytes(page);
      await signIn(page, env.base, ADMIN);
      await page.goto(`${env.base}/tickets/${current}`);
      await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
      const input = page.getByRole("textbox", { name: "Type a message" });
      const mic = page.getByRole("button", { name: "Record voice message" });
      await input.fill("x");
      expect(await mic.count()).toBe(0);
      await input.fill("");

      await mic.click();
      await page.getByRole("group", { name: "Recording" }).waitFor();
      expect(await input.isDisabled()).toBe(true);
      await page.getByRole("button", { name: "Send recording" }).click();
      await page.getByRole("alert").filter({ hasText: "Recording too short" }).waitFor();

      await mic.click();
      // The fake microphone produces audio in real time, so how long this takes depends on the machine's load,
      // not on the timer shown; the wait ends as soon as the recording is over the minimum size.
      await page.waitForFunction(
        (min) => ((window as Window & { __recordedBytes?: number }).__recordedBytes ?? 0) >= min,
        MIN_RECORDING_BYTES,
        {
          timeout: 10_000,
        },
      );
      await page.getByRole("button", { name: "Send recording" }).click();
      await page.locator(".bubble.me audio").waitFor({ timeout: 5_000 });
      const sent = (await env.deps.db.select().from(messages)).filter((m) => m.ticketId === current && m.fromMe);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.mediaType).toBe("audio");
      expect(sent[0]!.fileName).toMatch(/^audio-record-site-\d+\.mp3$/);
      expect(sent[0]!.mediaMime).toBe("audio/mpeg");
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 20_000);

  test("the call button shows only with a Wavoip token and opens the dialer for the contact's number", async () => {
    const { current } = await seedContact("5511922221111", "Joana Chamada");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await context.route("https://app.wavoip.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Wavoip</title>" }),
    );
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${current}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble", { hasText: "Mensagem nova" }).waitFor();
    expect(await page.getByRole("button", { name: "Chamada de voz" }).count()).toBe(0);

    await env.deps.db.update(connections).set({ wavoip: "tok en/1" }).where(eq(connections.id, whatsappId));
    try {
      await page.reload();
      await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
      const call = page.getByRole("button", { name: "Chamada de voz" });
      await call.waitFor();
      const [popup] = await Promise.all([context.waitForEvent("page"), call.click()]);
      await popup.waitForURL("https://app.wavoip.com/**");
      expect(popup.url()).toBe("https://app.wavoip.com/call?token=tok%20en%2F1&phone=5511922221111");
      await popup.close();

      const noNumber = await seedContact("", "Sem Número");
      await page.goto(`${env.base}/tickets/${noNumber.current}`);
      await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
      await page.getByRole("button", { name: "Chamada de voz" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "Não foi possível iniciar a chamada: falta o token do Wavoip ou o número do contato." })
        .waitFor();
    } finally {
      await env.deps.db.update(connections).set({ wavoip: "" }).where(eq(connections.id, whatsappId));
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 15_000);

  test("the input grows up to 5 rows (wrapped lines too); Shift+Enter adds a line and Enter sends", async () => {
    const { current } = await seedContact("5511911110000", "Kai Linhas");
    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${current}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const input = page.getByRole("textbox", { name: "Type a message" });
    const height = async (value: string) => {
      await input.fill(value);
      return input.evaluate((el) => el.getBoundingClientRect().height);
    };
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
    const [one, four, five, eight] = [
      await height("a"),
      await height(lines(4)),
      await height(lines(5)),
      await height(lines(8)),
    ];
    expect(four).toBeGreaterThan(one);
    expect(five).toBeGreaterThan(four);
    expect(eight).toBe(five);
    expect(await input.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await height("word ".repeat(120))).toBeGreaterThan(one);

    await input.fill("");
    await input.type("primeira");
    await input.press("Shift+Enter");
    await input.type("segunda");
    expect(await input.inputValue()).toBe("primeira\nsegunda");
    await input.press("Enter");
    await page.locator(".bubble.me", { hasText: "segunda" }).waitFor();
    expect(await input.inputValue()).toBe("");
    const sent = (await env.deps.db.select().from(messages)).filter((m) => m.ticketId === current && m.fromMe);
    expect(sent.map((m) => m.body)).toEqual(["primeira\nsegunda"]);
    expect(errors).toEqual([]);
    await context.close();
  }, 15_000);

  test("scrolling to the top of a long history loads the older page and keeps the reading position", async () => {
    const db = env.deps.db;
    const contactId = (
      await one(db.insert(contacts).values({ name: "Paulo Paginas", number: "5511900001234" }).returning())
    ).id;
    const ticketId = (
      await one(db.insert(tickets).values({ status: "open", contactId, whatsappId, userId: adminId }).returning())
    ).id;
    const start = Date.now() - 3600_000;
    await db.insert(messages).values(
      Array.from({ length: 45 }, (_, i) => ({
        wid: `page-${i}`,
        whatsappId,
        ticketId,
        contactId,
        body: `Linha ${i + 1}`,
        createdAt: new Date(start + i * 1000),
      })),
    );
    const { context, page, errors } = await openPage(env.browser);
    // A sixth form login within 20 s from one address would meet the login rate limit; this test comes from another.
    await context.setExtraHTTPHeaders({ "x-forwarded-for": "127.0.0.9" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble", { hasText: "Linha 45" }).waitFor();
    const bubbles = () => page.locator(".messages .bubble").count();
    expect(await bubbles()).toBe(20);
    for (const expected of [40, 45]) {
      await page.locator(".messages").evaluate((el) => (el.scrollTop = 0));
      await page.waitForFunction((n) => document.querySelectorAll(".messages .bubble").length === n, expected);
    }
    // The oldest message is first, and the newest is still there below it.
    expect(await page.locator(".messages .bubble").first().textContent()).toContain("Linha 1");
    expect(await page.locator(".messages .bubble").count()).toBe(45);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a customer's edit, reaction and undecryptable message show live on the bubbles", async () => {
    const { current } = await seedContact("5511977776666", "Iara Reações");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/tickets/${current}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble", { hasText: "Mensagem nova" }).waitFor();
    const sink = (env.deps.channels as ConnectionManager).driverSink;
    await sink.onEdit(whatsappId, { id: "new-5511977776666", body: "Mensagem corrigida", at: Date.now() });
    await sink.onReaction(whatsappId, {
      targetId: "new-5511977776666",
      emoji: "👍",
      reactor: "5511977776666",
      at: Date.now(),
    });
    const bubble = page.locator(".bubble", { hasText: "Mensagem corrigida" });
    await bubble.locator(".reactions", { hasText: "👍" }).waitFor();
    expect(await bubble.locator(".edited").textContent()).toBe("editada");
    await sink.onMessage(whatsappId, {
      id: "W-1",
      chatId: "5511977776666",
      isGroup: false,
      fromMe: false,
      at: Date.now(),
      kind: "waiting",
      body: "x",
    });
    await page.locator(".bubble .waiting", { hasText: "Aguardando mensagem" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
