// @engine once
import { beforeEach, describe, expect, test } from "bun:test";
import { BASE, islandProps, loginAs, makeTestApp, type TestContext } from "./helpers";

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestApp();
});

async function page(path: string, cookie: string, lang = "en") {
  const res = await ctx.app.handle(new Request(BASE + path, { headers: { cookie, "accept-language": lang } }));
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const ADMIN_ROUTES = [
  ["/connections", "AdminConnections", "Add WhatsApp"],
  ["/users", "AdminUsers", "Add user"],
  ["/Queues", "AdminQueues", "Add queue"],
  ["/Settings", "AdminSettings", "Settings"],
  ["/tags", "AdminTags", "Add tag"],
  ["/webhooks", "AdminWebhooks", "Add webhook"],
] as const;

describe("administration pages", () => {
  test("each admin route renders its island inside the app frame for an admin, not the 'not available' frame", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    for (const [path, island, text] of ADMIN_ROUTES) {
      const res = await page(path, cookie);
      expect(res.status).toBe(200);
      expect(res.html).toContain(`data-island="${island}"`);
      expect(res.html).toContain(text);
      expect(res.html).not.toContain("<p>This screen is not available in the browser yet.</p>");
      expect(res.html).toContain(`href="${path}" aria-current="page"`);
    }
  });

  test("the connections island learns whether the sandbox provider may be offered", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const res = await page("/connections", cookie);
    expect(islandProps(res.html, "AdminConnections")).toMatchObject({ sandbox: true });
  });

  test("an agent opening an admin-only route gets the no-permission frame and no island", async () => {
    const { cookie } = await loginAs(ctx, { profile: "user" });
    for (const [path, island] of ADMIN_ROUTES.filter(([p]) => p !== "/tags")) {
      const res = await page(path, cookie);
      expect(res.status).toBe(200);
      expect(res.html).toContain('data-forbidden="true"');
      expect(res.html).toContain("You don&#x27;t have permission to access this resource.");
      expect(res.html).not.toContain(`data-island="${island}"`);
    }
  });

  test("an agent lists tags without the edit column; an admin gets it", async () => {
    const agent = await loginAs(ctx, { profile: "user" });
    const asAgent = await page("/tags", agent.cookie);
    expect(asAgent.html).toContain('data-island="AdminTags"');
    expect(islandProps(asAgent.html, "AdminTags")).toMatchObject({ canEdit: false });
    const admin = await loginAs(ctx, { profile: "admin" });
    expect(islandProps((await page("/tags", admin.cookie)).html, "AdminTags")).toMatchObject({ canEdit: true });
  });

  test("admin pages are translated (pt and es)", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    expect((await page("/connections", cookie, "pt-BR")).html).toContain("Adicionar WhatsApp");
    expect((await page("/connections", cookie, "pt-BR")).html).toContain("Reiniciar serviço");
    expect((await page("/Queues", cookie, "es")).html).toContain("Agregar cola");
  });

  test("without a session the admin routes redirect to /login", async () => {
    for (const [path] of ADMIN_ROUTES) {
      const res = await ctx.app.handle(new Request(BASE + path));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/login");
    }
  });
});
