// @engine once
import { closeDatabase, first, one, openDatabase, sqliteClient } from "../src/db/client";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../src/config";
import { contacts, messages, tickets } from "../src/db/tables";
import { checkUpload, storeUpload } from "../src/modules/media/service";
import { restrictDataDir } from "../src/private-files";
import { BASE, call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-storage-"));
  dirs.push(dir);
  return dir;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const MB = 1024 * 1024;
const modeOf = (path: string) => statSync(path).mode & 0o777;
const mediaFiles = (ctx: TestContext) =>
  existsSync(ctx.deps.config.mediaDir) ? readdirSync(ctx.deps.config.mediaDir).filter((f) => f !== "sandbox") : [];

/** An app with its own media folder, an admin, a paired sandbox connection and an open ticket of the admin. */
async function withMedia(overrides: Parameters<typeof makeTestApp>[0] = {}) {
  const ctx = await makeTestApp({ mediaDir: join(tempDir(), "media"), ...overrides });
  const admin = await loginAs(ctx, { profile: "admin" });
  const connection = await createSandboxConnection(ctx, { isDefault: true });
  let seq = 0;
  const openTicket = async () => {
    const contact = await one(
      ctx.db
        .insert(contacts)
        .values({ name: `Media ${++seq}`, number: `5531988${String(seq).padStart(6, "0")}` })
        .returning(),
    );
    return await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "open", userId: admin.user.id, whatsappId: connection.id })
        .returning(),
    );
  };
  const upload = async (ticketId: number, files: { bytes: Uint8Array; name: string }[]) => {
    const form = new FormData();
    for (const f of files) form.append("medias", new File([f.bytes as Uint8Array<ArrayBuffer>], f.name));
    const res = await ctx.app.handle(
      new Request(`${BASE}/api/messages/${ticketId}`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin.token}` },
        body: form,
      }),
    );
    return { status: res.status, json: await res.json().catch(() => null) };
  };
  return { ctx, admin, connection, openTicket, upload };
}

describe("uploads", () => {
  test("M5: an upload is checked before anything is written, and a file waiting for its connection stays with its message", async () => {
    const { ctx, connection, openTicket, upload } = await withMedia({ maxMediaMb: 1 });
    const ticket = await openTicket();
    // Under the request's own cap (MAX_MEDIA_MB + 1 MB), so the file check itself answers.
    const tooBig = new Uint8Array(1.5 * MB);
    tooBig.set(PNG);

    // The second file is over MAX_MEDIA_MB: nothing is written, not even the valid first one.
    expect(
      await upload(ticket.id, [
        { bytes: PNG, name: "ok.png" },
        { bytes: tooBig, name: "big.png" },
      ]),
    ).toMatchObject({ status: 413, json: { error: "ERR_MEDIA_TOO_LARGE" } });
    expect(mediaFiles(ctx)).toEqual([]);

    // The connection is down: the message waits for it, and its file with it.
    await ctx.channels.stop(connection.id);
    expect(await upload(ticket.id, [{ bytes: PNG, name: "ok.png" }])).toMatchObject({
      status: 200,
      json: { messages: [{ sendState: "queued" }] },
    });
    expect(mediaFiles(ctx)).toHaveLength(1);

    await ctx.channels.start(connection.id);
    expect((await upload(ticket.id, [{ bytes: PNG, name: "ok.png" }])).status).toBe(200);
    expect(mediaFiles(ctx)).toHaveLength(2);
  });
});

describe("deleting what owns media", () => {
  test("L12: deleting a contact or a ticket removes its messages' media files from disk", async () => {
    const { ctx, admin, openTicket, upload } = await withMedia();
    const [kept, byTicket, byContact] = [await openTicket(), await openTicket(), await openTicket()];
    for (const t of [kept, byTicket, byContact])
      expect((await upload(t.id, [{ bytes: PNG, name: "photo.png" }])).status).toBe(200);
    const fileOf = async (ticketId: number) =>
      (await first(
        ctx.db.select({ mediaUrl: messages.mediaUrl }).from(messages).where(eq(messages.ticketId, ticketId)),
      ))!.mediaUrl!;
    const files = {
      kept: await fileOf(kept.id),
      byTicket: await fileOf(byTicket.id),
      byContact: await fileOf(byContact.id),
    };
    expect(mediaFiles(ctx).sort()).toEqual(Object.values(files).sort());

    expect((await call(ctx.app, "DELETE", `/api/tickets/${byTicket.id}`, { token: admin.token })).status).toBe(200);
    expect((await call(ctx.app, "DELETE", `/api/contacts/${byContact.contactId}`, { token: admin.token })).status).toBe(
      200,
    );
    expect(mediaFiles(ctx)).toEqual([files.kept]);
  });
});

describe("file modes", () => {
  test("L3: the database, its WAL, the secrets and every media file and folder are private to the server's user", async () => {
    const dataDir = tempDir();
    // What an earlier version left behind, readable by everyone.
    mkdirSync(join(dataDir, "media"), { recursive: true });
    writeFileSync(join(dataDir, "media", "old.jpg"), "x");
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, "media"), 0o755);
    chmodSync(join(dataDir, "media", "old.jpg"), 0o644);

    const config = loadConfig({ DATA_DIR: dataDir });
    restrictDataDir(config);
    const db = openDatabase(config.databasePath);
    sqliteClient(db).exec("CREATE TABLE probe (x)");
    for (const file of ["zapdesk.sqlite", "zapdesk.sqlite-wal", "zapdesk.sqlite-shm", "secrets.json", "media/old.jpg"])
      expect([file, modeOf(join(dataDir, file))]).toEqual([file, 0o600]);
    for (const dir of [dataDir, config.mediaDir]) expect(modeOf(dir)).toBe(0o700);
    await closeDatabase(db);

    // Files written from now on: uploads, and media a phone sends (the sandbox keeps its own copies too).
    const stored = await storeUpload({ config }, await checkUpload({ config }, new File([PNG], "new.png")));
    expect(modeOf(join(config.mediaDir, stored.fileName))).toBe(0o600);
    const ctx = await makeTestApp({ mediaDir: config.mediaDir });
    const admin = await loginAs(ctx, { profile: "admin" });
    const connection = await createSandboxConnection(ctx);
    await call(ctx.app, "POST", `/api/sandbox/${connection.id}/inbound`, {
      token: admin.token,
      body: {
        from: "5511933332222",
        mediaType: "image",
        mediaBase64: Buffer.from(PNG).toString("base64"),
        fileName: "in.png",
      },
    });
    const inbound = (await ctx.db.select().from(messages)).find((m) => m.fileName === "in.png")!;
    expect(modeOf(join(config.mediaDir, inbound.mediaUrl!))).toBe(0o600);
    await ctx.db.update(tickets).set({ status: "open", userId: admin.user.id }).where(eq(tickets.id, inbound.ticketId));
    const form = new FormData();
    form.append("medias", new File([PNG], "out.png"));
    expect(
      (
        await ctx.app.handle(
          new Request(`${BASE}/api/messages/${inbound.ticketId}`, {
            method: "POST",
            headers: { authorization: `Bearer ${admin.token}` },
            body: form,
          }),
        )
      ).status,
    ).toBe(200);
    const sandboxDir = join(config.mediaDir, "sandbox");
    expect(modeOf(sandboxDir)).toBe(0o700);
    for (const file of readdirSync(sandboxDir)) expect(modeOf(join(sandboxDir, file))).toBe(0o600);
    for (const file of readdirSync(config.mediaDir).filter((f) => f !== "sandbox"))
      expect(modeOf(join(config.mediaDir, file))).toBe(0o600);
  });
});

describe("inbound media", () => {
  test("L9: inbound media over MAX_MEDIA_MB becomes a message with its name and size, and no file", async () => {
    const { ctx, admin, connection } = await withMedia({ maxMediaMb: 1 });
    const inbound = (body: Record<string, unknown>) =>
      call(ctx.app, "POST", `/api/sandbox/${connection.id}/inbound`, {
        token: admin.token,
        body: { from: "5511944443333", ...body },
      });
    const big = new Uint8Array(1.5 * MB);
    big.set(PNG);
    expect(
      (await inbound({ mediaType: "image", fileName: "huge.png", mediaBase64: Buffer.from(big).toString("base64") }))
        .status,
    ).toBe(200);
    expect(
      (
        await inbound({
          mediaType: "document",
          fileName: "notes.pdf",
          body: "see attached",
          mediaBase64: Buffer.from(big).toString("base64"),
        })
      ).status,
    ).toBe(200);
    expect(
      (await inbound({ mediaType: "image", fileName: "small.png", mediaBase64: Buffer.from(PNG).toString("base64") }))
        .status,
    ).toBe(200);

    const rows = await ctx.db.select().from(messages);
    expect(rows.find((m) => m.body.startsWith("huge.png"))).toMatchObject({
      body: "huge.png (1.5 MB)",
      mediaType: "image",
      mediaUrl: null,
    });
    expect(rows.find((m) => m.body.startsWith("see attached"))).toMatchObject({
      body: "see attached\nnotes.pdf (1.5 MB)",
      mediaUrl: null,
    });
    const small = rows.find((m) => m.fileName === "small.png")!;
    expect(mediaFiles(ctx)).toEqual([small.mediaUrl!]);
  });
});
