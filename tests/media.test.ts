// @engine once
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contacts, messages, queues, tickets } from "../src/db/tables";
import { isInlineMedia, sizeLimitOf, sniffMime } from "../src/modules/media/sniff";
import { BASE, loginAs, makeTestApp, type TestContext } from "./helpers";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("sniffMime", () => {
  test("recognises the supported formats by their magic bytes", () => {
    expect(sniffMime(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffMime(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(sniffMime(bytes("GIF89a"))).toBe("image/gif");
    expect(sniffMime(bytes("RIFF", 0, 0, 0, 0, "WEBP"))).toBe("image/webp");
    expect(sniffMime(bytes("RIFF", 0, 0, 0, 0, "WAVE"))).toBe("audio/wav");
    expect(sniffMime(bytes("%PDF-1.7"))).toBe("application/pdf");
    expect(sniffMime(bytes("OggS", 0))).toBe("audio/ogg");
    expect(sniffMime(bytes("ID3", 3))).toBe("audio/mpeg");
    expect(sniffMime(bytes(0, 0, 0, 0x20, "ftypisom"))).toBe("video/mp4");
    expect(sniffMime(bytes(0, 0, 0, 0x20, "ftypM4A "))).toBe("audio/mp4");
    expect(sniffMime(bytes(0x1a, 0x45, 0xdf, 0xa3))).toBe("video/webm");
    // A MediaRecorder voice recording: WebM whose only track is Opus audio.
    expect(sniffMime(bytes(0x1a, 0x45, 0xdf, 0xa3, 0, "webm", 0x86, 0x86, "A_OPUS"))).toBe("audio/webm");
    expect(sniffMime(bytes(0x1a, 0x45, 0xdf, 0xa3, 0, "webm", 0x86, "V_VP8", 0x86, "A_OPUS"))).toBe("video/webm");
    expect(sniffMime(bytes(0x50, 0x4b, 0x03, 0x04, "....word/document.xml"))).toContain("wordprocessingml");
    expect(sniffMime(bytes(0x50, 0x4b, 0x03, 0x04, "....other"))).toBe("application/zip");
  });

  test("HTML, SVG and anything unknown are octet-stream, shown only as attachments", () => {
    expect(sniffMime(bytes("<!DOCTYPE html><script>"))).toBe("application/octet-stream");
    expect(sniffMime(bytes("<svg xmlns='http://www.w3.org/2000/svg'>"))).toBe("application/octet-stream");
    expect(isInlineMedia("application/octet-stream")).toBe(false);
    expect(isInlineMedia("image/png")).toBe(true);
  });

  test("size limits: images 5 MB, audio/video 16 MB, documents 100 MB", () => {
    expect(
      [
        sizeLimitOf("image/png"),
        sizeLimitOf("audio/ogg"),
        sizeLimitOf("audio/webm"),
        sizeLimitOf("video/mp4"),
        sizeLimitOf("application/pdf"),
      ].map((n) => n / 1024 / 1024),
    ).toEqual([5, 16, 16, 16, 100]);
  });
});

let seq = 0;
async function mediaMessage(ctx: TestContext, content: Uint8Array, fileName: string, queueId: number | null = null) {
  const dir = ctx.deps.config.mediaDir;
  mkdirSync(dir, { recursive: true });
  const stored = `${crypto.randomUUID()}.bin`;
  writeFileSync(join(dir, stored), content);
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: "M", number: `55419${String(++seq).padStart(8, "0")}` })
      .returning(),
  );
  const ticket = await one(ctx.db.insert(tickets).values({ contactId: contact.id, queueId }).returning());
  return await one(
    ctx.db
      .insert(messages)
      .values({
        wid: `w${seq}`,
        ticketId: ticket.id,
        body: fileName,
        mediaType: "document",
        mediaUrl: stored,
        fileName,
      })
      .returning(),
  );
}

async function get(ctx: TestContext, path: string, token?: string) {
  return ctx.app.handle(new Request(BASE + path, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
}

describe("GET /api/media/:id", () => {
  test("serves the file with the sniffed type, nosniff, inline for images, to a Bearer caller; never takes ?token=", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const png = bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 1, 2);
    const m = await mediaMessage(ctx, png, "photo.png");
    expect((await get(ctx, `/api/media/${m.id}?token=${token}`)).status).toBe(401);
    const res = await get(ctx, `/api/media/${m.id}`, token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toStartWith("inline");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
  });

  test("HTML is never served as text/html: octet-stream attachment", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const m = await mediaMessage(ctx, bytes("<html><script>alert(1)</script>"), "page.html");
    const res = await get(ctx, `/api/media/${m.id}`, token);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toStartWith("attachment");
  });

  test("refusals: no token 401, a bad one 403, another queue's message 403, no such message or no file 404", async () => {
    const ctx = await makeTestApp();
    const a = await one(ctx.db.insert(queues).values({ name: "A", color: "#a" }).returning());
    const b = await one(ctx.db.insert(queues).values({ name: "B", color: "#b" }).returning());
    const { token } = await loginAs(ctx, { queueIds: [a.id] });
    const hidden = await mediaMessage(ctx, bytes("%PDF-1"), "x.pdf", b.id);
    expect((await get(ctx, `/api/media/${hidden.id}`)).status).toBe(401);
    expect((await get(ctx, `/api/media/${hidden.id}`, "garbage")).status).toBe(403);
    expect((await get(ctx, `/api/media/${hidden.id}`, token)).status).toBe(403);
    expect((await get(ctx, "/api/media/999", token)).status).toBe(404);
    expect((await get(ctx, "/api/media/abc", token)).status).toBe(400);
  });
});
