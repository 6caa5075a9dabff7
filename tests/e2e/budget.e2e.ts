import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { addUser, bootE2E, logIn, openPage } from "./boot";

let env: Awaited<ReturnType<typeof bootE2E>>;
const ADMIN = { name: "Bruna Budget", email: "bruna@example.com", password: "secret-123" };
const BUDGET_KB = 150;

beforeAll(async () => {
  env = await bootE2E();
  await addUser(env, ADMIN, "admin");
}, 30_000);

afterAll(async () => {
  await env?.stop();
});

describe("page weight", () => {
  test(`the first tickets page loads at most ${BUDGET_KB} KB of gzipped JavaScript`, async () => {
    const { context, page, errors } = await openPage(env.browser);
    await logIn(page, env.base, ADMIN);
    const scripts = new Set<string>();
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.add(new URL(request.url()).pathname);
    });
    await page.goto(`${env.base}/tickets`);
    await page.waitForSelector('[data-island="TicketsManager"][data-hydrated="true"]');
    await page.waitForLoadState("networkidle");
    const root = join(import.meta.dir, "..", "..", "dist");
    const bytes = [...scripts].reduce((sum, path) => sum + gzipSync(readFileSync(join(root, path))).length, 0);
    expect(scripts.size).toBeGreaterThan(0);
    expect(bytes / 1024).toBeLessThanOrEqual(BUDGET_KB);
    expect(errors).toEqual([]);
    await context.close();
  });
});
