import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addSandboxConnection, addUser, bootE2E, openPage, snapshot, addTicket, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let adminId: number;
const ADMIN = { email: "caio@example.com", password: "secret-123", name: "Caio Teclado" };
const _HOUR = 3_600_000;
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

beforeAll(async () => {
  env = await bootE2E();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
  const login = await fetch(`${env.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  for (const [shortcut, message] of [
    ["pix", "Nossa chave Pix é o CNPJ 12.345.678/0001-90."],
    ["pixqr", "Segue o QR code do Pix para pagamento."],
  ]) {
    const res = await fetch(`${env.base}/api/quickAnswers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ shortcut, message }),
    });
    if (!res.ok) throw new Error(`quick answer: ${res.status} ${await res.text()}`);
  }
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** An open ticket of the admin with one customer message, last active `hoursAgo`. */
async function seedTicket(name: string, number: string, hoursAgo = 1) {
  return await addTicket(env, { name, number, whatsappId, userId: adminId, hoursAgo, bodies: [`Oi, sou ${name}`] });
}

async function openChat(page: Page, ticketId: number, name: string) {
  await page.goto(`${env.base}/tickets/${ticketId}`);
  await page.locator(".chat-title", { hasText: name }).waitFor();
  await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
}

/** Nothing went to the customer: the sandbox outbox towards `number` stays empty. */
async function nothingSent(number: string) {
  await env.deps.outbox.idle(whatsappId);
  expect(await env.sandbox.outbox(whatsappId, number)).toEqual([]);
}

describe("the composer by keyboard", () => {
  test("/pix, ↓ and Enter insert the highlighted quick answer and send nothing; Tab inserts; Esc closes the list", async () => {
    const number = "5511960000001";
    const ticketId = await seedTicket("Paula Pix", number);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await openChat(page, ticketId, "Paula Pix");
    const input = page.getByRole("textbox", { name: "Type a message" });
    const list = page.getByRole("listbox", { name: "Quick answers" });

    await input.pressSequentially("/pix");
    await list.waitFor();
    expect(await list.getByRole("option").count()).toBe(2);
    const first = list.getByRole("option").nth(0);
    const second = list.getByRole("option").nth(1);
    expect(await first.getAttribute("aria-selected")).toBe("true");
    await input.press("ArrowDown");
    expect(await second.getAttribute("aria-selected")).toBe("true");
    expect(await first.getAttribute("aria-selected")).toBe("false");
    await snapshot(page, "composer-quick-answers-en-1440");
    const highlighted = (await second.locator("span").textContent())!;
    await input.press("Enter");
    expect(await input.inputValue()).toBe(highlighted);
    expect(await list.count()).toBe(0);
    await nothingSent(number);
    expect(await page.locator(".bubble.me").count()).toBe(0);

    // Tab takes the first one, with ↑ wrapping round to the last and ↓ back to the first.
    await input.fill("");
    await input.pressSequentially("/pix");
    await list.waitFor();
    await input.press("ArrowUp");
    expect(await second.getAttribute("aria-selected")).toBe("true");
    await input.press("ArrowDown");
    await input.press("Tab");
    expect(await input.inputValue()).toBe("Nossa chave Pix é o CNPJ 12.345.678/0001-90.");
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await nothingSent(number);

    // Esc closes the list and keeps the text as typed.
    await input.fill("");
    await input.pressSequentially("/pixq");
    await list.waitFor();
    await input.press("Escape");
    expect(await list.count()).toBe(0);
    expect(await input.inputValue()).toBe("/pixq");
    await nothingSent(number);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("Enter right after typing a shortcut, before the answers arrive, sends nothing", async () => {
    const number = "5511960000002";
    const ticketId = await seedTicket("Pedro Pressa", number);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await openChat(page, ticketId, "Pedro Pressa");
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.pressSequentially("/pix");
    await input.press("Enter");
    await page.getByRole("listbox", { name: "Quick answers" }).waitFor();
    await nothingSent(number);
    expect(await page.locator(".bubble.me").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("Alt+↓ and Alt+↑ open the next and previous ticket of the list without loading the page", async () => {
    const newer = await seedTicket("Ana Alt", "5511960000003", 0.1);
    const older = await seedTicket("Bruno Baixo", "5511960000004", 0.2);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await openChat(page, newer, "Ana Alt");
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.evaluate(() => {
      (window as Window & { kept?: string }).kept = "same page";
    });

    await page.keyboard.press("Alt+ArrowDown");
    await page.waitForURL(`${env.base}/tickets/${older}`);
    await page.locator(".chat-title", { hasText: "Bruno Baixo" }).waitFor();
    expect(await page.locator('a.ticket-row[aria-current="page"]').textContent()).toContain("Bruno Baixo");

    // From the composer too.
    await page.getByRole("textbox", { name: "Type a message" }).focus();
    await page.keyboard.press("Alt+ArrowUp");
    await page.waitForURL(`${env.base}/tickets/${newer}`);
    await page.locator(".chat-title", { hasText: "Ana Alt" }).waitFor();
    expect(await page.evaluate(() => (window as Window & { kept?: string }).kept)).toBe("same page");
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});

describe("Escape", () => {
  test("closes the app bar's menus, the chat's dialogs and the pasted-file preview", async () => {
    const number = "5511960000007";
    const ticketId = await seedTicket("Elisa Esc", number);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await openChat(page, ticketId, "Elisa Esc");

    for (const name of ["User menu", "Notifications"]) {
      const button = page.getByRole("button", { name });
      await button.click();
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      await page.keyboard.press("Escape");
      expect(await button.getAttribute("aria-expanded")).toBe("false");
    }

    await page.getByRole("button", { name: "Transfer" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await page.getByRole("textbox", { name: "Type a message" }).focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["nota"], "nota.txt", { type: "text/plain" }));
      document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
    });
    const preview = page.getByRole("region", { name: "Files to send" });
    await preview.waitFor();
    await page.keyboard.press("Escape");
    await preview.waitFor({ state: "detached" });
    await nothingSent(number);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});

describe("the composer in Portuguese on a phone", () => {
  test("a quick answer goes in by keyboard and the pasted-file preview stays within the screen", async () => {
    const number = "5511960000008";
    const ticketId = await seedTicket("Fábio Fone", number);
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 740 });
    await signIn(page, env.base, ADMIN);
    await openChat(page, ticketId, "Fábio Fone");
    const input = page.getByRole("textbox", { name: "Digite uma mensagem" });
    await input.pressSequentially("/pixq");
    await page.getByRole("listbox", { name: "Respostas rápidas" }).waitFor();
    await input.press("Enter");
    expect(await input.inputValue()).toBe("Segue o QR code do Pix para pagamento.");

    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "foto.png", { type: "image/png" }));
      document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
    }, PNG_BASE64);
    const preview = page.getByRole("region", { name: "Arquivos para enviar" });
    await preview.locator("img.thumbnail").waitFor();
    await snapshot(page, "composer-paste-preview-pt-375");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const send = preview.getByRole("button", { name: "Enviar" });
    const box = (await send.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await nothingSent(number);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});

describe("pasting and dropping files onto the chat", () => {
  test("a pasted image shows a preview with a caption and Send delivers the image with that caption", async () => {
    const number = "5511960000005";
    const ticketId = await seedTicket("Igor Imagem", number);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await openChat(page, ticketId, "Igor Imagem");
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.focus();
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "print.png", { type: "image/png" }));
      document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
    }, PNG_BASE64);

    const preview = page.getByRole("region", { name: "Files to send" });
    await preview.locator("img.thumbnail").waitFor();
    expect(await preview.textContent()).toContain("print.png");
    await nothingSent(number);
    const caption = page.getByRole("textbox", { name: "Add a caption" });
    await caption.fill("Comprovante do pagamento");
    await snapshot(page, "composer-paste-preview-en-1440");
    await preview.getByRole("button", { name: "Send" }).click();

    await page.locator(".bubble.me img.media-image").waitFor();
    expect(await preview.count()).toBe(0);
    await env.deps.outbox.idle(whatsappId);
    const sent = await env.sandbox.outbox(whatsappId, number);
    expect(sent.map((m) => ({ mediaType: m.mediaType, body: m.body }))).toEqual([
      { mediaType: "image", body: "Comprovante do pagamento" },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("a file dropped onto the chat shows its name and size, and Cancel sends nothing", async () => {
    const number = "5511960000006";
    const ticketId = await seedTicket("Dora Documento", number);
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await openChat(page, ticketId, "Dora Documento");
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["x".repeat(2048)], "contrato.pdf", { type: "application/pdf" }));
      const chat = document.querySelector(".chat")!;
      chat.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      chat.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    });

    const preview = page.getByRole("region", { name: "Files to send" });
    await preview.waitFor();
    expect(await preview.locator(".file-name").textContent()).toBe("contrato.pdf");
    expect(await preview.locator(".file-size").textContent()).toBe("2 KB");
    expect(await preview.locator("img").count()).toBe(0);
    await preview.getByRole("button", { name: "Cancel" }).click();
    expect(await preview.count()).toBe(0);
    await nothingSent(number);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});
