import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { addSandboxConnection, addUser, bootE2E, logIn, openPage, snapshot, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let token: string;
let agent: Awaited<ReturnType<typeof openPage>>;
const AGENT = { email: "bia@example.com", password: "secret-123", name: "Bia Agent" };
/** A 1×1 lossless WebP, the format WhatsApp stickers come in. */
const WEBP_BASE64 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";

/** A solid-colour PNG of the given size: tall enough that a list not pinned after it loads is visibly off. */
function pngBase64(width: number, height: number): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([30, 120, 90], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]).toString("base64");
}

/** A quarter second of silence as 8 kHz 8-bit mono WAV: a customer's voice note the browser can play. */
function wavBase64(): string {
  const samples = Buffer.alloc(2000, 128);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString("base64");
}

async function api<T = { id: number }>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An open ticket of the agent with a contact of this number, with some text so the list can scroll. */
async function agentTicket(number: string, name: string, agentId: number) {
  const contact = await api("POST", "/contacts", { name, number });
  const ticket = await api("POST", "/tickets", { contactId: contact.id, status: "open", userId: agentId });
  for (let i = 1; i <= 12; i++) await env.sandbox.inbound(whatsappId, { from: number, body: `Mensagem ${i}` });
  return ticket.id;
}

/** A finger resting on the middle of `target` until `until` is done (a long press), then lifted. */
async function longPress(
  context: BrowserContext,
  page: Page,
  target: { boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> },
  until: () => Promise<unknown>,
) {
  const box = (await target.boundingBox())!;
  const cdp = await context.newCDPSession(page);
  const touchPoints = [{ x: box.x + box.width / 2, y: box.y + box.height / 2 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints });
  await until();
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

async function openChat(page: Page, ticketId: number) {
  await page.goto(`${env.base}/tickets/${ticketId}`);
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
}

/** How far the message list is from its bottom, in pixels. */
function distanceFromBottom(page: Page) {
  return page.locator(".messages").evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

/** Waits (up to 5 s) for `count` loaded images with the list scrolled to its bottom; fails if it never is. */
async function pinnedWithImagesLoaded(page: Page, count: number) {
  await page.waitForFunction(
    (n) => {
      const images = [...document.querySelectorAll<HTMLImageElement>(".media-image")];
      const list = document.querySelector(".messages")!;
      const loaded = images.length === n && images.every((img) => img.complete && img.naturalHeight > 0);
      return loaded && list.scrollHeight - list.scrollTop - list.clientHeight <= 2;
    },
    count,
    { timeout: 5000 },
  );
}

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, { name: "Admin", email: "admin@example.com", password: "admin-123" }, "admin");
  await addUser(env, AGENT, "user");
  whatsappId = await addSandboxConnection(env);
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "admin-123" }),
  });
  token = ((await login.json()) as { token: string }).token;
  agent = await openPage(env.browser, { width: 1440, height: 700 });
  await logIn(agent.page, env.base, AGENT);
}, 30_000);

beforeEach(() => {
  agent.errors.length = 0;
});

afterAll(async () => {
  await env?.stop();
});

async function agentId() {
  const { users } = await api<{ users: { id: number; email: string }[] }>("GET", "/users/");
  return users.find((u) => u.email === AGENT.email)!.id;
}

describe("message bubbles", () => {
  test("with images in the history the chat opens at the newest message, and an image arriving keeps it there once it loads", async () => {
    const number = "5511911110001";
    const ticketId = await agentTicket(number, "Ivo Imagem", await agentId());
    await env.sandbox.inbound(whatsappId, { from: number, mediaType: "image", mediaBase64: pngBase64(400, 600) });
    await env.sandbox.inbound(whatsappId, { from: number, body: "Depois da foto" });
    const { page, errors } = agent;
    await openChat(page, ticketId);
    await page.locator(".media-image").waitFor();
    await pinnedWithImagesLoaded(page, 1);
    expect(await distanceFromBottom(page)).toBeLessThanOrEqual(2);

    // A new image while the reader is at the bottom: once it has loaded the newest message is still in view.
    await page.waitForSelector('html[data-live="true"]');
    await env.sandbox.inbound(whatsappId, { from: number, mediaType: "image", mediaBase64: pngBase64(300, 500) });
    await page.locator(".media-image").nth(1).waitFor();
    await pinnedWithImagesLoaded(page, 2);
    expect(await distanceFromBottom(page)).toBeLessThanOrEqual(2);
    await snapshot(page, "e2e-bubbles-pinned");
    expect(errors).toEqual([]);
  }, 30_000);

  test("clicking an image opens it large in a lightbox, which Escape and a click close", async () => {
    const number = "5511911110002";
    const ticketId = await agentTicket(number, "Lara Luz", await agentId());
    await env.sandbox.inbound(whatsappId, { from: number, mediaType: "image", mediaBase64: pngBase64(200, 150) });
    const { page, errors } = agent;
    await openChat(page, ticketId);
    const enlarge = page.getByRole("button", { name: "Enlarge" });
    await enlarge.click();
    const lightbox = page.locator("dialog.lightbox");
    await lightbox.locator("img").waitFor();
    expect(await lightbox.evaluate((el) => (el as HTMLDialogElement).open)).toBe(true);
    await snapshot(page, "e2e-bubbles-lightbox");
    await page.keyboard.press("Escape");
    await lightbox.waitFor({ state: "detached" });

    await enlarge.click();
    await lightbox.locator("img").click();
    await lightbox.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  }, 30_000);

  test("a sticker shows as an image, a contact card has a Chat button that opens that contact's ticket, and a location links to the map", async () => {
    const number = "5511911110003";
    const ticketId = await agentTicket(number, "Sofia Sticker", await agentId());
    await env.sandbox.inbound(whatsappId, { from: number, mediaType: "sticker", mediaBase64: WEBP_BASE64 });
    await env.sandbox.inbound(whatsappId, {
      from: number,
      mediaType: "vcard",
      body: "BEGIN:VCARD\nVERSION:3.0\nFN:Carlos Cartão\nTEL;type=CELL;waid=5511922223333:+55 11 92222-3333\nEND:VCARD",
    });
    await env.sandbox.inbound(whatsappId, { from: number, mediaType: "location", body: "-23.5505, -46.6333" });
    const { page, errors } = agent;
    await openChat(page, ticketId);

    const sticker = page.locator("img.media-sticker");
    await sticker.waitFor();
    await page.waitForFunction(
      () => (document.querySelector("img.media-sticker") as HTMLImageElement).naturalWidth > 0,
    );
    expect(await page.getByText("sticker.bin").count()).toBe(0);

    const map = page.getByRole("link", { name: "Open map" });
    expect(await map.getAttribute("href")).toBe(
      "https://www.openstreetmap.org/?mlat=-23.5505&mlon=-46.6333#map=17/-23.5505/-46.6333",
    );

    const card = page.locator(".vcard", { hasText: "Carlos Cartão" });
    await card.getByText("5511922223333").waitFor();
    await snapshot(page, "e2e-bubbles-cards");
    await card.getByRole("button", { name: "Chat" }).click();
    await page.waitForURL((url) => /^\/tickets\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${ticketId}`));
    await page.getByRole("region", { name: "Carlos Cartão" }).waitFor();
    expect(errors).toEqual([]);
  }, 30_000);

  test("received audio, images and documents load under signed links: no token in any URL the page asks for", async () => {
    const number = "5511911110014";
    const ticketId = await agentTicket(number, "Alba Audio", await agentId());
    const { page, errors } = agent;
    const asked: string[] = [];
    const record = (request: { url(): string }) => asked.push(request.url());
    page.on("request", record);
    try {
      await env.sandbox.inbound(whatsappId, { from: number, mediaType: "audio", mediaBase64: wavBase64() });
      await env.sandbox.inbound(whatsappId, { from: number, mediaType: "image", mediaBase64: pngBase64(40, 40) });
      await openChat(page, ticketId);
      await page.waitForSelector('html[data-live="true"]');
      // One arriving live, over the socket: its link is signed too.
      await env.sandbox.inbound(whatsappId, {
        from: number,
        mediaType: "document",
        fileName: "boleto.pdf",
        mediaBase64: Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64"),
      });
      await page.waitForFunction(() => {
        const audio = document.querySelector<HTMLAudioElement>(".bubble audio.media-audio");
        return audio != null && Number.isFinite(audio.duration) && audio.duration > 0;
      });
      await pinnedWithImagesLoaded(page, 1);
      const download = page.locator("a.media-file", { hasText: "boleto.pdf" });
      await download.waitFor();
      const href = (await download.getAttribute("href"))!;
      expect(href).toMatch(/^(https?:\/\/[^/]+)?\/api\/media\/\d+\?expires=\d+&signature=[\w-]+$/);
      // The link opens without any header, as a new tab or another program would open it.
      const file = await fetch(new URL(href, env.base));
      expect(file.status).toBe(200);
      expect(await file.text()).toStartWith("%PDF");

      const media = asked.filter((url) => url.includes("/api/media/"));
      expect(media.length).toBeGreaterThanOrEqual(2);
      for (const url of media) expect(url).toMatch(/\?expires=\d+&signature=/);
      expect(asked.filter((url) => /[?&]token=/.test(url))).toEqual([]);
      await snapshot(page, "e2e-bubbles-signed-media");
      expect(errors).toEqual([]);
    } finally {
      page.off("request", record);
    }
  }, 30_000);

  test("the agent deletes an own message after confirming: it shows as deleted", async () => {
    const number = "5511911110004";
    const ticketId = await agentTicket(number, "Dora Delete", await agentId());
    const { page, errors } = agent;
    await openChat(page, ticketId);
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.fill("Mensagem errada");
    await input.press("Enter");
    const bubble = page.locator(".bubble.me", { hasText: "Mensagem errada" });
    await bubble.locator(".ack:not(.failed)").waitFor();
    await env.deps.outbox.idle(whatsappId);

    await bubble.hover();
    await bubble.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete message?" });
    await confirm.getByText("This action cannot be reverted.").waitFor();
    await confirm.getByRole("button", { name: "Confirm" }).click();

    const deleted = page.locator(".bubble.me .deleted", { hasText: "This message was deleted" });
    await deleted.waitFor();
    expect(await page.locator(".messages").getByText("Mensagem errada").count()).toBe(0);
    // Like WhatsApp, a deleted message keeps its time but no delivery ticks.
    const gone = page.locator(".bubble.me", { hasText: "This message was deleted" });
    expect(await gone.locator("time").count()).toBe(1);
    expect(await gone.locator(".ack").count()).toBe(0);
    await snapshot(page, "e2e-bubbles-deleted");
    expect(errors).toEqual([]);
  }, 30_000);

  test("on a touch phone bubbles show no action icons and a long press opens Reply and Delete; a voice note's player fits its bubble and a document shows its caption", async () => {
    const number = "5511911110006";
    const ticketId = await agentTicket(number, "Toni Toque", await agentId());
    await env.sandbox.inbound(whatsappId, { from: number, mediaType: "audio", mediaBase64: wavBase64() });
    await env.sandbox.inbound(whatsappId, {
      from: number,
      mediaType: "document",
      fileName: "comprovante.pdf",
      body: "Segue o comprovante do Pix",
      mediaBase64: Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64"),
    });
    await api("POST", `/messages/${ticketId}`, { body: "Recebido, obrigado" });
    await env.deps.outbox.idle(whatsappId);
    const { context, page, errors } = await openPage(env.browser, { width: 375, height: 800, touch: true });
    await signIn(page, env.base, AGENT);
    await openChat(page, ticketId);

    const doc = page.locator(".bubble.them", { hasText: "comprovante.pdf" });
    expect(await doc.locator(".text").textContent()).toBe("Segue o comprovante do Pix");
    const audio = page.locator(".bubble.them audio.media-audio");
    // Once the player knows its length its bubble keeps its size, and the list stays where it is.
    await page.waitForFunction(() => {
      const player = document.querySelector<HTMLAudioElement>(".bubble audio.media-audio");
      return player != null && Number.isFinite(player.duration) && player.duration > 0;
    });
    const [player, bubble] = await Promise.all([
      audio.boundingBox(),
      page.locator(".bubble.them:has(audio)").boundingBox(),
    ]);
    expect(player!.x + player!.width).toBeLessThanOrEqual(bubble!.x + bubble!.width);
    expect(bubble!.x + bubble!.width).toBeLessThanOrEqual(375);

    const own = page.locator(".bubble.me", { hasText: "Recebido, obrigado" });
    expect(await own.locator(".reply-button").isVisible()).toBe(false);
    expect(await own.locator(".delete-button").isVisible()).toBe(false);
    await longPress(context, page, own, () => own.getByRole("menu").waitFor());
    expect(await own.getByRole("menuitem").allTextContents()).toEqual(["Reply", "Copy", "Forward", "Delete"]);
    expect(await own.locator(".forward-button").isVisible()).toBe(false);
    await own.getByRole("menuitem", { name: "Reply" }).tap();
    await page.locator(".reply-preview", { hasText: "Recebido, obrigado" }).waitFor();
    // A customer's message: the quick reactions are in the same menu, not an icon beside it.
    expect(await doc.locator(".react-button").isVisible()).toBe(false);
    await longPress(context, page, doc, () => doc.getByRole("menu").waitFor());
    expect(await doc.getByRole("menuitemradio").count()).toBe(6);
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("in Portuguese on a phone the reply and delete buttons show without hover, and the delete confirmation and the deleted message read in Portuguese", async () => {
    const number = "5511911110005";
    const ticketId = await agentTicket(number, "Paula Português", await agentId());
    await api("POST", `/messages/${ticketId}`, { body: "Enviei sem querer" });
    await env.deps.outbox.idle(whatsappId);
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 800 });
    await signIn(page, env.base, AGENT);
    await openChat(page, ticketId);
    const bubble = page.locator(".bubble.me", { hasText: "Enviei sem querer" });
    // A phone has no hover: the reply and delete buttons show without it, on screen.
    for (const name of ["Responder", "Apagar"]) {
      const button = bubble.getByRole("button", { name });
      expect(await button.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    await bubble.getByRole("button", { name: "Apagar" }).click();
    const confirm = page.getByRole("dialog", { name: "Apagar mensagem?" });
    await confirm.getByText("Esta ação não pode ser revertida.").waitFor();
    await confirm.getByRole("button", { name: "Confirmar" }).click();
    await page.locator(".bubble.me .deleted", { hasText: "Esta mensagem foi apagada" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
