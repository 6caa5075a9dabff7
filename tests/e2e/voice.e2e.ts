import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { messages, tickets } from "../../src/db/tables";
import { MIN_RECORDING_BYTES } from "../../islands/agent/VoiceRecorder";
import {
  addSandboxConnection,
  addUser,
  bootE2E,
  CHROMIUM_ARGS,
  logIn,
  openPage,
  snapshot,
  countRecordedBytes,
  addTicket,
  signIn,
} from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "vera@example.com", password: "secret-123", name: "Vera Voz" };
const AGENT = { email: "tito@example.com", password: "secret-456", name: "Tito Agent" };

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  await addUser(env, AGENT, "user");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** An open ticket of the admin with one message from the contact. */
async function seedTicket(number: string, name: string) {
  return await addTicket(env, { name, number, whatsappId, userId: adminId, bodies: ["Bom dia"] });
}

/** The bit rate (kbit/s) an MPEG-1 Layer III frame header names, or null when `bytes` does not start with one. */
function mp3BitRate(bytes: Uint8Array): number | null {
  const KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  if (bytes[0] !== 0xff || (bytes[1]! & 0xfe) !== 0xfa) return null;
  return KBPS[bytes[2]! >> 4] ?? null;
}

describe("voice notes", () => {
  test("a recorded voice note is uploaded as a 128 kbit/s mp3, plays with a duration, and the list reads Voice message beside the mic icon", async () => {
    const ticketId = await seedTicket("5511944443333", "Rita Áudio");
    // Fake capture devices only for this test: chromium grants the microphone and feeds it a beep.
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [...CHROMIUM_ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
    });
    try {
      const { context, page, errors } = await openPage(browser, { locale: "en-US" });
      await countRecordedBytes(page);
      await signIn(page, env.base, ADMIN);
      await page.goto(`${env.base}/tickets/${ticketId}`);
      await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
      const row = page.locator(`li[data-ticket-id="${ticketId}"] .row-last`);
      await row.filter({ hasText: "Bom dia" }).waitFor();

      await page.getByRole("button", { name: "Record voice message" }).click();
      await page.waitForFunction(
        (min) => ((window as Window & { __recordedBytes?: number }).__recordedBytes ?? 0) >= min,
        MIN_RECORDING_BYTES,
        { timeout: 10_000 },
      );
      await page.getByRole("button", { name: "Send recording" }).click();
      const player = page.locator(".bubble.me audio");
      await player.waitFor({ timeout: 10_000 });

      const sent = (await env.deps.db.select().from(messages)).filter((m) => m.ticketId === ticketId && m.fromMe);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ mediaType: "audio", mediaMime: "audio/mpeg" });
      expect(sent[0]!.fileName).toMatch(/^audio-record-site-\d+\.mp3$/);
      const file = new Uint8Array(readFileSync(join(env.deps.config.mediaDir, sent[0]!.mediaUrl!)));
      expect(file.length).toBeGreaterThanOrEqual(MIN_RECORDING_BYTES);
      expect(mp3BitRate(file)).toBe(128);

      await row.filter({ hasText: "Voice message" }).waitFor();
      await page.waitForFunction(() => {
        const audio = document.querySelector<HTMLAudioElement>(".bubble.me audio");
        return audio != null && Number.isFinite(audio.duration) && audio.duration > 0;
      });
      await snapshot(page, "voice-note-sent");
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 30_000);

  test("a voice note from the customer reads Mensagem de voz in the Portuguese list", async () => {
    const ticketId = await seedTicket("5511944442222", "Caio Cliente");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await logIn(page, env.base, ADMIN);
    const row = page.locator(`li[data-ticket-id="${ticketId}"] .row-last`);
    await row.filter({ hasText: "Bom dia" }).waitFor();
    // The list hears the message only once its rooms are joined: after it hydrated, the pong to its joins.
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.waitForSelector('html[data-live="true"]');
    const { storeMessage } = await import("../../src/modules/messages/store");
    const contactId = (await env.deps.db.select().from(tickets)).find((t) => t.id === ticketId)!.contactId;
    await storeMessage(env.deps, {
      whatsappId,
      wid: "voice-in-1",
      ticketId,
      contactId,
      body: "audio.ogg",
      fromMe: false,
      mediaType: "audio",
      mediaMime: "audio/ogg",
      fileName: "audio.ogg",
    });
    await row.filter({ hasText: "Mensagem de voz" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("log out everywhere", () => {
  test("ends this device's session and sends it to /login; another device's session stops working too", async () => {
    const laptop = await openPage(env.browser);
    const phone = await openPage(env.browser);
    await logIn(laptop.page, env.base, AGENT);
    await logIn(phone.page, env.base, AGENT);

    await laptop.page.getByRole("button", { name: "User menu" }).click();
    await laptop.page.getByRole("menuitem", { name: "Log out everywhere" }).click();
    await laptop.page.waitForURL(`${env.base}/login`);

    const refreshed = await phone.page.evaluate(async () => {
      const res = await fetch("/api/auth/refresh_token", { method: "POST" });
      return res.status;
    });
    expect(refreshed).toBe(401);
    await phone.page.goto(`${env.base}/tickets`);
    await phone.page.waitForURL(`${env.base}/login`);
    expect(laptop.errors).toEqual([]);
    await laptop.context.close();
    await phone.context.close();
  });
});

describe("first run on the inbox", () => {
  test("an admin sees the checklist in the empty chat pane of /tickets; an agent sees only the welcome note", async () => {
    const admin = await openPage(env.browser);
    await logIn(admin.page, env.base, ADMIN);
    await admin.page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    const card = admin.page.locator(".chat-pane .onboarding");
    await card.waitFor();
    expect(await card.getByRole("link", { name: "Create queues" }).getAttribute("href")).toBe("/Queues");
    await snapshot(admin.page, "tickets-onboarding");
    expect(await admin.page.locator(".chat-pane", { hasText: "Select a ticket to start chatting." }).count()).toBe(1);
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    const agent = await openPage(env.browser);
    await logIn(agent.page, env.base, AGENT);
    await agent.page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await agent.page.locator(".chat-pane", { hasText: "Select a ticket to start chatting." }).waitFor();
    expect(await agent.page.locator(".onboarding").count()).toBe(0);
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });
});
