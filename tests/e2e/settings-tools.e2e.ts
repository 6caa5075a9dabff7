import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addUser, bootE2E, openPage, signIn } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { email: "tools@example.com", password: "secret-123", name: "Tina Tools" };
/** A data folder (and database file, which a backup copies) of this file's own, where no other test looks. */
const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-e2e-tools-"));

beforeAll(async () => {
  env = await bootE2E({ dataDir, databasePath: join(dataDir, "zapdesk.sqlite"), mediaDir: join(dataDir, "media") });
  await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  await env?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("settings tools", () => {
  test("Copy puts the API token on the clipboard and Back up now adds a backup to the list", async () => {
    const { context, page, errors } = await openPage(env.browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, env.base, ADMIN);
    await page.goto(`${env.base}/Settings`);
    await page.waitForSelector('[data-island="AdminSettings"][data-hydrated="true"]');
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Token copied.").waitFor();
    const token = await page.getByLabel("API token").inputValue();
    expect(token).not.toBe("");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    await page.getByText("No backup yet.").waitFor();
    await page.getByRole("button", { name: "Back up now" }).click();
    await page.getByText("Backup written.").waitFor();
    await page.locator(".admin-backups li", { hasText: "scheduled" }).getByRole("link", { name: "Download" }).waitFor();
    expect(readdirSync(join(dataDir, "backups"))).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
