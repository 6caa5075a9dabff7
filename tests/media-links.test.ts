// @engine once
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { contacts, messages, queues, tickets } from "../src/db/tables";
import { hasExpired } from "../islands/chat/media-link";
import { MEDIA_LINK_LIFETIME, signedMediaPath } from "../src/http/signed-links";
import { IpRanges } from "../src/shared/ip-ranges";
import { BASE, call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
let seq = 0;

/** A ticket with one stored image message; returns both ids. */
async function imageMessage(ctx: TestContext) {
  mkdirSync(ctx.deps.config.mediaDir, { recursive: true });
  const stored = `${crypto.randomUUID()}.png`;
  writeFileSync(join(ctx.deps.config.mediaDir, stored), PNG);
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: "Foto", number: `55418${String(++seq).padStart(8, "0")}` })
      .returning(),
  );
  const ticket = await one(ctx.db.insert(tickets).values({ contactId: contact.id, status: "open" }).returning());
  const message = await one(
    ctx.db
      .insert(messages)
      .values({ wid: `img${seq}`, ticketId: ticket.id, body: "foto", mediaType: "image", mediaUrl: stored })
      .returning(),
  );
  return { ticketId: ticket.id, messageId: message.id };
}

/** Opens a link as an <img> would: no header, no cookie. */
function open(ctx: TestContext, link: string) {
  return ctx.app.handle(new Request(link.startsWith("/") ? BASE + link : link));
}

async function linkOf(
  ctx: TestContext,
  ticketId: number,
  token: string,
  headers: Record<string, string> = {},
  peer?: string,
) {
  const page = await call(ctx.app, "GET", `/api/messages/${ticketId}`, { token, headers, peer });
  expect(page.status).toBe(200);
  return page.json.messages[0].mediaUrl as string;
}

describe("signed media links", () => {
  test("API answers carry an absolute link that opens the file without a header and holds no token", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const { ticketId, messageId } = await imageMessage(ctx);
    const link = await linkOf(ctx, ticketId, token, { host: "desk.example.com:8443" });
    expect(link).toStartWith(`http://desk.example.com:8443/api/media/${messageId}?expires=`);
    expect(link).not.toContain(token);
    expect(link).not.toContain("token");
    const res = await open(ctx, link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  test("the link's origin is PUBLIC_URL when set, and https behind a trusted proxy", async () => {
    const ctx = await makeTestApp({ publicUrl: "https://zap.example.com" });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const { ticketId } = await imageMessage(ctx);
    expect(await linkOf(ctx, ticketId, token)).toStartWith("https://zap.example.com/api/media/");
    const proxied = await makeTestApp();
    const admin = await loginAs(proxied, { profile: "admin" });
    const other = await imageMessage(proxied);
    const link = await linkOf(proxied, other.ticketId, admin.token, {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "inbox.example.com",
    });
    expect(link).toStartWith("https://inbox.example.com/api/media/");
    // The same headers from a client that reached the port directly choose nothing.
    const direct = await linkOf(
      proxied,
      other.ticketId,
      admin.token,
      { "x-forwarded-proto": "https", "x-forwarded-host": "inbox.example.com" },
      "198.51.100.4",
    );
    expect(direct).toStartWith("http://localhost/api/media/");
  });

  test("a page of our own origin gets links under the origin its browser sees, even behind an uncounted proxy", async () => {
    const ctx = await makeTestApp({ trustProxy: IpRanges.none });
    const { token } = await loginAs(ctx, { profile: "admin" });
    const { ticketId } = await imageMessage(ctx);
    const link = await linkOf(ctx, ticketId, token, {
      host: "desk.example.com",
      "sec-fetch-site": "same-origin",
      referer: "https://desk.example.com/tickets/1",
    });
    expect(link).toStartWith("https://desk.example.com/api/media/");
    // Another site's page cannot choose the origin of its links through Referer.
    const other = await linkOf(ctx, ticketId, token, {
      host: "desk.example.com",
      "sec-fetch-site": "cross-site",
      referer: "https://elsewhere.example/",
    });
    expect(other).toStartWith("http://desk.example.com/api/media/");
  });

  test("a link stops working once it expired (about an hour), with 403 ERR_LINK_EXPIRED", async () => {
    const ctx = await makeTestApp();
    const { messageId } = await imageMessage(ctx);
    const link = signedMediaPath(ctx.deps, messageId);
    ctx.clock.advance((MEDIA_LINK_LIFETIME - 1) * 1000);
    expect((await open(ctx, link)).status).toBe(200);
    ctx.clock.advance(20 * 60_000);
    const res = await open(ctx, link);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "ERR_LINK_EXPIRED" });
  });

  test("a tampered signature or expiry is refused", async () => {
    const ctx = await makeTestApp();
    const { messageId } = await imageMessage(ctx);
    const link = signedMediaPath(ctx.deps, messageId);
    const url = new URL(link, BASE);
    const signature = url.searchParams.get("signature")!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    expect((await open(ctx, link.replace(signature, flipped))).status).toBe(403);
    const later = Number(url.searchParams.get("expires")) + 86_400;
    expect((await open(ctx, link.replace(/expires=\d+/, `expires=${later}`))).status).toBe(403);
    expect((await open(ctx, `/api/media/${messageId}?expires=${later}`)).status).toBe(403);
    expect((await open(ctx, `/api/media/${messageId}?signature=${signature}`)).status).toBe(403);
  });

  test("one file's signature does not open another file", async () => {
    const ctx = await makeTestApp();
    const first = await imageMessage(ctx);
    const second = await imageMessage(ctx);
    const link = signedMediaPath(ctx.deps, first.messageId);
    expect((await open(ctx, link)).status).toBe(200);
    expect((await open(ctx, link.replace(`/media/${first.messageId}?`, `/media/${second.messageId}?`))).status).toBe(
      403,
    );
  });

  test("a signature made with another installation's secret is refused", async () => {
    const ctx = await makeTestApp();
    const { messageId } = await imageMessage(ctx);
    const foreign = signedMediaPath({ config: { jwtSecret: "another-installation" }, clock: ctx.clock }, messageId);
    expect((await open(ctx, foreign)).status).toBe(403);
  });

  test("a chat open past its links' expiry asks for a fresh link to a file its user may see", async () => {
    const ctx = await makeTestApp();
    const { ticketId, messageId } = await imageMessage(ctx);
    const admin = await loginAs(ctx, { profile: "admin" });
    const stale = await linkOf(ctx, ticketId, admin.token);
    ctx.clock.advance(2 * MEDIA_LINK_LIFETIME * 1000);
    expect((await open(ctx, stale)).status).toBe(403);
    const { token } = await loginAs(ctx, { profile: "admin" });
    const renewed = await call(ctx.app, "GET", `/api/media/${messageId}/link`, { token });
    expect(renewed.json.url).toStartWith(`http://localhost/api/media/${messageId}?expires=`);
    expect((await open(ctx, renewed.json.url)).status).toBe(200);

    const queue = await one(ctx.db.insert(queues).values({ name: "Vendas", color: "#0a0" }).returning());
    await ctx.db.update(tickets).set({ queueId: queue.id }).where(eq(tickets.id, ticketId));
    const outsider = await loginAs(ctx);
    expect((await call(ctx.app, "GET", `/api/media/${messageId}/link`, { token: outsider.token })).status).toBe(403);
    expect((await call(ctx.app, "GET", `/api/media/${messageId}/link`)).status).toBe(401);
  });

  test("live frames to our pages carry a same-origin signed link to the new file", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    await createSandboxConnection(ctx, { isDefault: true });
    const contact = await call(ctx.app, "POST", "/api/contacts", {
      token,
      body: { name: "Ana", number: "5511977776666" },
    });
    const ticket = await call(ctx.app, "POST", "/api/tickets", {
      token,
      body: { contactId: contact.json.id, status: "open" },
    });
    const form = new FormData();
    form.append("medias", new File([PNG], "foto.png", { type: "image/png" }));
    const sent = await ctx.app.handle(
      new Request(`${BASE}/api/messages/${ticket.json.id}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      }),
    );
    expect(sent.status).toBe(200);
    const frame = ctx.hub
      .to(`ticket:${ticket.json.id}`, "appMessage")
      .find((f) => (f.payload as { action: string }).action === "create");
    const link = (frame!.payload as { message: { mediaUrl: string } }).message.mediaUrl;
    expect(link).toMatch(/^\/api\/media\/\d+\?expires=\d+&signature=[\w-]+$/);
    expect((await open(ctx, link)).status).toBe(200);
    const answered = (await sent.json()) as { messages: { mediaUrl: string }[] };
    expect(answered.messages[0]!.mediaUrl).toStartWith("http://localhost/api/media/");
  });
});

describe("the chat's view of a link's expiry", () => {
  test("a link counts as expired from half a minute before its expiry, relative or absolute", () => {
    const at = 1_800_000_000;
    expect(hasExpired(`/api/media/4?expires=${at}&signature=x`, (at - 31) * 1000)).toBe(false);
    expect(hasExpired(`/api/media/4?expires=${at}&signature=x`, (at - 30) * 1000)).toBe(true);
    expect(hasExpired(`https://desk.example.com/api/media/4?expires=${at}&signature=x`, (at + 5) * 1000)).toBe(true);
    expect(hasExpired("/api/media/4", at * 1000)).toBe(false);
  });
});
