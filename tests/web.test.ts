// @engine once
import { one } from "../src/db/client";
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { connections } from "../src/db/tables";
import { updateSetting } from "../src/modules/settings/service";
import { scriptJson } from "../src/web/render";
import { BASE, islandProps, loginAs, makeTestApp, type TestContext } from "./helpers";

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestApp();
});

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.handle(new Request(BASE + path, { headers }));
  return { status: res.status, headers: res.headers, html: await res.text() };
}

function boot(html: string) {
  const m = html.match(/<script id="__boot" type="application\/json">(.*?)<\/script>/s);
  if (!m) throw new Error("no boot JSON");
  return JSON.parse(m[1]!);
}

describe("route guards", () => {
  test("a private page without a session redirects to /login", async () => {
    for (const path of ["/", "/tickets", "/tickets/12", "/contacts", "/Settings"]) {
      const res = await page(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/login");
    }
  });

  test("a revoked or forged refresh cookie counts as logged out", async () => {
    const res = await page("/tickets", { cookie: "rt=not-a-jwt" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
  });

  test("a logged-in user opening /login or /signup is sent to /", async () => {
    const { cookie } = await loginAs(ctx);
    for (const path of ["/login", "/signup"]) {
      const res = await page(path, { cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
    }
  });
});

describe("public pages", () => {
  test("/login renders the login form island, translated, without a token", async () => {
    const res = await page("/login", { "accept-language": "pt-BR,pt;q=0.9" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.html).toContain('<html lang="pt">');
    expect(res.html).toContain('data-island="LoginForm"');
    expect(res.html).toContain("Senha");
    expect(res.html).toContain('href="/signup"');
    const b = boot(res.html);
    expect(b).toMatchObject({ lng: "pt", token: null, user: null });
    expect(Object.keys(b.resources).sort()).toEqual(["en", "pt"]);
  });

  test("the language cookie wins over Accept-Language", async () => {
    const res = await page("/login", { "accept-language": "pt-BR", cookie: "lang=es" });
    expect(res.html).toContain('<html lang="es">');
    expect(res.html).toContain("Contraseña");
  });

  test("the theme cookie puts a light or dark scheme on <html> before any script runs; system or an unknown value puts none", async () => {
    const dark = await page("/login", { cookie: "theme=dark" });
    expect(dark.html).toContain('<html lang="en" data-theme="dark">');
    expect(boot(dark.html).theme).toBe("dark");
    const { cookie } = await loginAs(ctx);
    const light = await page("/tickets", { cookie: `${cookie}; theme=light` });
    expect(light.html).toContain('data-theme="light"');
    for (const value of ["system", "purple"]) {
      const res = await page("/login", { cookie: `theme=${value}` });
      expect(res.html).toContain('<html lang="en">');
      expect(boot(res.html).theme).toBe("system");
    }
  });

  test("/signup shows the disabled notice while userCreation is off, and the form when on", async () => {
    const off = await page("/signup");
    expect(off.html).toContain("Sign up is disabled");
    expect(off.html).not.toContain('name="password"');
    await updateSetting(ctx.deps, "userCreation", "enabled");
    const on = await page("/signup");
    expect(on.html).toContain('data-island="SignupForm"');
    expect(on.html).toContain('name="password"');
    expect(islandProps(on.html, "SignupForm")).toEqual({ enabled: true });
  });

  test("the page loads the built client entry as a module", async () => {
    const res = await page("/login");
    expect(res.html).toMatch(/<script type="module" src="\/public\/islands\/client[^"]*\.js">/);
  });
});

describe("private pages", () => {
  test("an agent gets the app frame with a fresh access token and no administration section", async () => {
    const { user, cookie } = await loginAs(ctx, { name: "Ana" });
    const res = await page("/tickets", { cookie, "accept-language": "en" });
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-island="UserMenu"');
    expect(res.html).toContain('data-island="NotificationsBell"');
    const drawer = res.html.match(/<nav id="drawer".*?<\/nav>/s)![0];
    expect(drawer).toContain("Quick Answers");
    expect(drawer).not.toContain("Administration");
    expect(res.html).toContain('href="/tickets" aria-current="page"');
    const b = boot(res.html);
    expect(b.user).toEqual({ id: user.id, name: "Ana", email: user.email, profile: "user", availability: "online" });
    expect(typeof b.token).toBe("string");
    const me = await ctx.app.handle(
      new Request(`${BASE}/api/settings`, { headers: { authorization: `Bearer ${b.token}` } }),
    );
    expect(me.status).not.toBe(401);
  });

  test("an admin sees the Administration section", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const res = await page("/", { cookie, "accept-language": "es" });
    const drawer = res.html.match(/<nav id="drawer".*?<\/nav>/s)![0];
    expect(drawer).toContain("Administración");
    expect(drawer).toContain('href="/connections"');
  });

  test("islands get distinct id prefixes in one page", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/", { cookie });
    const ids = [...res.html.matchAll(/data-island-id="(i\d+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["i0", "i1", "i2", "i3"]);
  });

  test("/tickets/:id renders the list and the chat islands with the ticket id", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const res = await page("/tickets/7", { cookie });
    expect(res.html).toContain('data-island="TicketsManager"');
    expect(res.html).toContain('data-island="Chat"');
    expect(islandProps(res.html, "Chat")).toMatchObject({ ticketId: 7 });
    expect(islandProps(res.html, "TicketsManager")).toMatchObject({ canShowAll: true });
  });

  test("/tickets renders the chat island showing the welcome note, and the list takes its view from the query", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const res = await page("/tickets?tab=search&q=Ana", { cookie, "accept-language": "en" });
    expect(islandProps(res.html, "Chat")).toMatchObject({ ticketId: null, initial: null });
    expect(res.html).toMatch(
      /class="chat-pane welcome" data-island="Chat"[^>]*>.*Select a ticket to start chatting\./s,
    );
    expect(islandProps(res.html, "TicketsManager").view).toEqual({ tab: "search", sub: "open", search: "Ana" });
  });

  test("boot JSON escapes < so a user's name cannot close the script element", async () => {
    const { cookie } = await loginAs(ctx, { name: "</script><b>x" });
    const res = await page("/", { cookie });
    const raw = res.html.match(/<script id="__boot" type="application\/json">(.*?)<\/script>/s)![1]!;
    expect(raw).not.toContain("<");
    expect(boot(res.html).user.name).toBe("</script><b>x");
  });
});

describe("connections warning", () => {
  test("the Connections entry carries a warning while a connection waits for its QR code, and none once all are connected, on the tickets page too", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const row = await one(
      ctx.db.insert(connections).values({ name: "Main", provider: "sandbox", status: "qrcode" }).returning(),
    );
    // The tickets page reads the warning with its first-run checklist; the other pages on its own.
    for (const path of ["/", "/tickets"]) {
      const warned = await page(path, { cookie });
      expect(warned.html).toContain('data-island="ConnectionsBadge"');
      expect(warned.html).toContain('class="warn-dot"');
    }
    await ctx.db.update(connections).set({ status: "CONNECTED" }).where(eq(connections.id, row.id));
    for (const path of ["/", "/tickets"]) {
      const calm = await page(path, { cookie });
      expect(calm.html).not.toContain('class="warn-dot"');
    }
  });
});

describe("sandbox page", () => {
  test("/sandbox is for admins only: an agent is sent to /", async () => {
    const { cookie } = await loginAs(ctx);
    const res = await page("/sandbox", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  test("/sandbox renders the customer phone island for an admin, linked from the drawer", async () => {
    const { cookie } = await loginAs(ctx, { profile: "admin" });
    const res = await page("/sandbox", { cookie });
    expect(res.status).toBe(200);
    expect(res.html).toContain('data-island="SandboxPhone"');
    expect(res.html).toContain('href="/sandbox" aria-current="page"');
  });

  test("/sandbox is gone when the sandbox network is off", async () => {
    const off = await makeTestApp({ sandbox: false });
    const { cookie } = await loginAs(off, { profile: "admin" });
    const res = await off.app.handle(new Request(`${BASE}/sandbox`, { headers: { cookie } }));
    expect(res.status).toBe(302);
    const home = await (await off.app.handle(new Request(`${BASE}/`, { headers: { cookie } }))).text();
    expect(home).not.toContain('href="/sandbox"');
  });
});

describe("scriptJson", () => {
  test("escapes <, U+2028 and U+2029 and stays valid JSON", () => {
    const s = scriptJson({ a: "<!-- </script> \u2028\u2029" });
    expect(s).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(s)).toEqual({ a: "<!-- </script> \u2028\u2029" });
  });
});
