import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { messages } from "../../src/db/tables";
import { updateAiSettings } from "../../src/modules/ai/settings";
import { FakeOpenAI } from "../ai/fake-openai";
import { addSandboxConnection, addTicket, addUser, bootE2E, openPage, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let fake: FakeOpenAI;
let adminId: number;
let whatsappId: number;
const ADMIN = { email: "ia@example.com", password: "secret-123", name: "Iara Admin" };

beforeAll(async () => {
  env = await bootE2E();
  fake = new FakeOpenAI();
  adminId = await addUser(env, ADMIN, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await fake?.stop();
  await env?.stop();
});

/** The admin signed in on a fresh page showing the chat of a new ticket of `name`, who wrote `body`. */
async function chatOf(name: string, number: string, body: string) {
  const ticketId = await addTicket(env, { name, number, whatsappId, userId: adminId, bodies: [body] });
  const opened = await openPage(env.browser);
  await signIn(opened.page, env.base, ADMIN);
  await opened.page.goto(`${env.base}/tickets/${ticketId}`);
  await opened.page.waitForSelector('[data-island="Chat"][data-hydrated="true"]');
  return { ...opened, ticketId };
}

describe("AI assistance", () => {
  test("the settings card saves the endpoint, keeps the key write-only, tests it and shows the usage", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/Settings`);
    await page.waitForSelector('[data-island="AdminSettings"][data-hydrated="true"]');
    await page.getByText("No key stored").waitFor();
    await page.getByLabel("Base URL (OpenAI-compatible)").fill(fake.url);
    await page.getByLabel("API key").fill("sk-e2e-secret");
    await page.getByLabel("Model", { exact: true }).fill("fake-model");
    await page.getByLabel("AI assistance", { exact: true }).check();
    fake.reply({ text: "OK" });
    await page.getByRole("button", { name: "Test" }).click();
    await page.getByText("The model answered: OK").waitFor();
    await page.getByText("A key is stored (type to replace it)").waitFor();
    expect(await page.getByLabel("API key").inputValue()).toBe("");
    expect(fake.requests.at(-1)!.authorization).toBe("Bearer sk-e2e-secret");
    await page.locator(".admin-ai-usage dd").first().filter({ hasText: "1" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a suggestion streams into the composer for the agent to edit, and a failure leaves the composer as it was", async () => {
    await updateAiSettings(env.deps.db, {
      enabled: true,
      baseUrl: fake.url,
      model: "fake-model",
      features: ["suggest"],
    });
    const { context, page, errors, ticketId } = await chatOf("Ana Souza", "5511970000099", "Oi, meu pedido não chegou");
    const field = page.getByRole("textbox", { name: "Type a message" });

    fake.reply({ text: "Olá, Ana! Vou verificar o seu pedido agora mesmo.", chunk: 10, pauseAfter: 1 });
    await page.getByRole("button", { name: "Suggest a reply (AI)" }).click();
    await page.waitForFunction(
      () => (document.querySelector(".composer textarea") as HTMLTextAreaElement).value === "Olá, Ana! ",
    );
    fake.resume();
    await page.waitForFunction(
      () =>
        (document.querySelector(".composer textarea") as HTMLTextAreaElement).value ===
        "Olá, Ana! Vou verificar o seu pedido agora mesmo.",
    );
    expect(fake.promptText()).toContain("Oi, meu pedido não chegou");
    const stored = await env.deps.db.select().from(messages).where(eq(messages.ticketId, ticketId));
    expect(stored).toHaveLength(1);

    await field.fill("Rascunho meu");
    fake.reply({ status: 500 });
    await field.press("Alt+KeyI");
    await page.getByText("The AI endpoint answered with an error.").waitFor();
    expect(await field.inputValue()).toBe("Rascunho meu");
    expect(errors).toEqual([`502 ${env.base}/api/tickets/${ticketId}/ai/suggest`]);
    await context.close();
  });

  test("Summary (AI) in the chat header shows the model's summary, asked once", async () => {
    await updateAiSettings(env.deps.db, { features: ["suggest", "summary"] });
    const { context, page, errors } = await chatOf("Bruno Lima", "5511970000098", "Quero trocar o tamanho");
    const asked = fake.requests.length;
    fake.reply({ text: "Customer: Bruno\nWants: another size\nDone: nothing\nPending: the exchange" });
    await page.locator(".chat-actions").getByRole("button", { name: "Summary (AI)" }).click();
    await page.getByRole("dialog", { name: "Summary of the conversation" }).getByText("Wants: another size").waitFor();
    expect(fake.requests.length).toBe(asked + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a customer's message shows its translation, and a reply translated before sending keeps its original in a note", async () => {
    await updateAiSettings(env.deps.db, { features: ["translate"] });
    const { context, page, errors, ticketId } = await chatOf(
      "Claire Martin",
      "5511970000097",
      "Bonjour, ma commande n'est pas arrivée",
    );
    const bubble = page.locator(".bubble.them", { hasText: "Bonjour" });
    fake.reply({ text: "Hello, my order has not arrived" });
    await bubble.hover();
    await bubble.getByRole("button", { name: "Translate (AI)" }).click();
    await bubble.locator(".translation", { hasText: "Hello, my order has not arrived" }).waitFor();

    const field = page.getByRole("textbox", { name: "Type a message" });
    await field.fill("I will check it now.");
    fake.reply({ text: "Je vais le vérifier maintenant." });
    await page.getByRole("button", { name: "Translate into the customer's language (AI)" }).click();
    await page.waitForFunction(
      () =>
        (document.querySelector(".composer textarea") as HTMLTextAreaElement).value ===
        "Je vais le vérifier maintenant.",
    );
    await field.press("Enter");
    await page.locator(".bubble.note", { hasText: "I will check it now." }).waitFor();
    const stored = await env.deps.db.select().from(messages).where(eq(messages.ticketId, ticketId));
    expect(stored.map((m) => [m.body, m.isPrivate])).toEqual([
      ["Bonjour, ma commande n'est pas arrivée", false],
      ["Je vais le vérifier maintenant.", false],
      ["Original of the translated reply:\nI will check it now.", true],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
