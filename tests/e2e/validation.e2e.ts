import { one } from "../../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { contacts, tickets } from "../../src/db/tables";
import { updateSetting } from "../../src/modules/settings/service";
import { addSandboxConnection, addUser, bootE2E, logIn, openPage, snapshot } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
let whatsappId: number;
let agentId: number;
const AGENT = { email: "vera@example.com", password: "secret-123", name: "Vera Agent" };

beforeAll(async () => {
  env = await bootE2E();
  agentId = await addUser(env, AGENT, "user");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

async function openIsland(page: Page, path: string, island: string) {
  await page.goto(`${env.base}${path}`);
  await page.waitForSelector(`[data-island="${island}"][data-hydrated="true"]`);
}

describe("inline validation", () => {
  for (const [locale, texts] of [
    ["en-US", { add: "Add contact", name: "Name", number: "WhatsApp number", min: "Too Short!" }],
    ["pt-BR", { add: "Adicionar contato", name: "Nome", number: "Número do WhatsApp", min: "Muito curto!" }],
  ] as const) {
    test(`a contact number of 3 digits shows the minimum message as it is typed (${locale})`, async () => {
      const { context, page, errors } = await openPage(env.browser, { locale });
      await logIn(page, env.base, AGENT);
      await openIsland(page, "/contacts", "AgentContacts");
      await page.getByRole("button", { name: texts.add }).click();
      const dialog = page.locator("dialog[open]");
      await dialog.getByLabel(texts.name, { exact: true }).fill("Rita Souza");
      await dialog.getByLabel(texts.number).fill("123");
      await dialog.locator(".field-error", { hasText: texts.min }).waitFor();
      expect(await dialog.locator(".field-error").allTextContents()).toEqual([texts.min]);
      expect(await dialog.getByLabel(texts.number).getAttribute("aria-invalid")).toBe("true");

      await dialog.getByLabel(texts.number).fill("+55 11 98765-4321");
      await dialog.locator(".field-error").waitFor({ state: "detached" });
      expect(errors).toEqual([]);
      await context.close();
    }, 30_000);
  }

  test("a quick-answer message shorter than 8 characters shows the minimum message; submitting shows every field's", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, AGENT);
    await openIsland(page, "/quickAnswers", "AgentQuickAnswers");
    await page.getByRole("button", { name: "Add quick answer" }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.getByLabel("Message").fill("pix");
    await dialog.locator(".field-error", { hasText: "Too Short!" }).waitFor();

    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.locator(".field-error", { hasText: "Required" }).waitFor();
    expect(await dialog.locator(".field-error").allTextContents()).toEqual(["Required", "Too Short!"]);
    expect(await page.locator(".toast").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("a schedule body under 5 characters reads 'Mensagem muito curta' in pt, and the disabled Save says why", async () => {
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await logIn(page, env.base, AGENT);
    await openIsland(page, "/schedules", "AgentSchedules");
    await page.getByRole("button", { name: "Novo agendamento" }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.getByLabel("Mensagem").fill("oi");
    await dialog.locator(".field-error", { hasText: "Mensagem muito curta" }).waitFor();

    const ok = dialog.getByRole("button", { name: "Salvar" });
    expect(await ok.isDisabled()).toBe(true);
    expect(await dialog.locator(".disabled-reason").textContent()).toBe("Preencha os campos obrigatórios");
    expect(await ok.getAttribute("title")).toBe("Preencha os campos obrigatórios");
    await snapshot(dialog, "e2e-validation-schedule-pt");
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("a tag name under 3 characters reads 'Mensagem muito curta' in pt as it is typed, and saving waits for a valid one", async () => {
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await logIn(page, env.base, AGENT);
    await openIsland(page, "/tags", "AdminTags");
    await page.getByRole("button", { name: "Adicionar tag" }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.getByLabel("Nome", { exact: true }).fill("vi");
    await dialog.locator(".field-error", { hasText: "Mensagem muito curta" }).waitFor();
    await dialog.getByRole("button", { name: "Salvar" }).click();
    expect(await dialog.locator(".field-error").allTextContents()).toEqual(["Mensagem muito curta"]);

    await dialog.getByLabel("Nome", { exact: true }).fill("vip");
    await dialog.locator(".field-error").waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("signup shows each field's message as it is typed, before any submit (pt)", async () => {
    await updateSetting(env.deps, "userCreation", "enabled");
    const { context, page, errors } = await openPage(env.browser, { locale: "pt-BR" });
    await page.goto(`${env.base}/signup`);
    await page.waitForSelector('[data-island="SignupForm"][data-hydrated="true"]');
    await page.fill("#email", "carla@");
    await page.fill("#password", "123");
    await page.locator("#password-error").waitFor();
    expect(await page.locator(".field-error").allTextContents()).toEqual(["Email inválido", "Muito curto!"]);
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  test("a field the server refuses shows its message once, next to the field, and not as a toast", async () => {
    const db = env.deps.db;
    const contactId = (
      await one(db.insert(contacts).values({ name: "Caio Prazo", number: "5511933332222" }).returning())
    ).id;
    const ticketId = (
      await one(db.insert(tickets).values({ status: "open", contactId, whatsappId, userId: agentId }).returning())
    ).id;
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, AGENT);
    await openIsland(page, `/tickets/${ticketId}`, "Chat");
    await page.getByLabel("Type a message").fill("Lembrete do seu horário");
    await page.getByRole("button", { name: "Send later" }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.getByLabel("Send at").fill("2020-01-01T10:00");
    await dialog.getByRole("button", { name: "Save" }).click();

    const message = page.getByText("The date must be in the future");
    await message.waitFor();
    expect(await message.count()).toBe(1);
    expect(await dialog.locator(".field-error").allTextContents()).toEqual(["The date must be in the future"]);
    expect(await page.locator(".toast").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
