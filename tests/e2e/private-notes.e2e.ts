import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addSandboxConnection, addUser, bootE2E, openPage, snapshot, addTicket, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let agentId: number;
const AGENT = { email: "bia@example.com", password: "secret-123", name: "Bia Agent" };

beforeAll(async () => {
  env = await bootE2E();
  agentId = await addUser(env, AGENT, "user");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

/** An open ticket of the agent whose contact wrote one message. */
async function seedTicket(number: string, name: string) {
  return await addTicket(env, { name, number, whatsappId, userId: agentId, bodies: ["Preciso de ajuda"] });
}

describe("private notes", () => {
  test("the agent writes a private note: it shows styled as a note in the chat and the contact's phone gets nothing", async () => {
    const number = "5511955554444";
    const ticketId = await seedTicket(number, "Nina Nota");
    const { context, page, errors } = await openPage(env.browser, { locale: "en-US" });
    await signIn(page, env.base, AGENT);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');

    const toggle = page.getByRole("button", { name: "Private note" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    await page.getByText("Only your team sees this note; the contact never gets it.").waitFor();
    expect(await page.locator("form.composer").getAttribute("class")).toContain("note");
    const input = page.getByRole("textbox", { name: "Write a private note" });
    await input.fill("Cliente pediu reembolso, falar com financeiro");
    await input.press("Enter");

    const note = page.locator(".bubble.note", { hasText: "Cliente pediu reembolso" });
    await note.waitFor();
    expect((await note.locator(".note-label").textContent())?.trim()).toBe(`Private note · ${AGENT.name}`);
    expect(await note.locator(".ack").count()).toBe(0);
    // Drawn in the theme's note colour, not as a message of ours.
    const noteBackground = await note.evaluate((el) => getComputedStyle(el).backgroundColor);
    const noteColour = await page.evaluate(() => {
      const probe = document.createElement("div");
      probe.style.background = "var(--note-bg)";
      document.body.append(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(noteBackground).toBe(noteColour);
    expect(await input.inputValue()).toBe("");
    await env.deps.outbox.idle(whatsappId);
    expect(await env.sandbox.outbox(whatsappId, number)).toEqual([]);

    // With the toggle off the next text is a message to the contact again, with its ticks.
    await toggle.click();
    const message = page.getByRole("textbox", { name: "Type a message" });
    await message.fill("Vamos verificar, um momento");
    await message.press("Enter");
    const sent = page.locator(".bubble.me:not(.note)", { hasText: "Vamos verificar" });
    await sent.waitFor();
    expect(await sent.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(noteBackground);
    await snapshot(page, "private-note-en-1440");
    await env.deps.outbox.idle(whatsappId);
    expect((await env.sandbox.outbox(whatsappId, number)).map((m) => m.body)).toEqual(["Vamos verificar, um momento"]);

    // The note is kept in the history: a reload shows it as a note again.
    await page.reload();
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    await page.locator(".bubble.note", { hasText: "Cliente pediu reembolso" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);

  test("in Portuguese on a phone the composer's menu holds Nota privada and the composer stays within the screen", async () => {
    const ticketId = await seedTicket("5511955553333", "Otto Telefone");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR", width: 375, height: 740 });
    await signIn(page, env.base, AGENT);
    await page.goto(`${env.base}/tickets/${ticketId}`);
    await page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
    // On a phone the toggle lives in the composer's menu, leaving the field its width.
    await page.getByRole("button", { name: "Opções da mensagem" }).click();
    await page.getByRole("menuitemcheckbox", { name: "Nota privada" }).click();
    const input = page.getByRole("textbox", { name: "Escreva uma nota privada" });
    await input.fill("Ligar de volta amanhã");
    await input.press("Enter");
    await page.locator(".bubble.note", { hasText: "Ligar de volta" }).waitFor();
    await snapshot(page, "private-note-pt-375");
    const composer = await page.locator("form.composer").evaluate((el) => ({
      right: el.getBoundingClientRect().right,
      overflow: el.scrollWidth - el.clientWidth,
    }));
    expect(composer.right).toBeLessThanOrEqual(375);
    expect(composer.overflow).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});
