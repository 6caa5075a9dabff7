// @engine each
import { first as firstRow, one, openDatabase, sqliteClient } from "../../src/db/client";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { BinaryNode } from "baileys";
import { runMigrations } from "../../src/db/migrate";
import { contacts, messages, tickets, connections } from "../../src/db/tables";
import type { RecordingHub } from "../../src/realtime/hub";
import { call, loginAs, makeTestApp, type TestContext } from "../helpers";
import { FakeWa } from "./fakewa/server";
import { testDriver } from "./fakewa/driver";
import { RecordingSink } from "./fakewa/sink";

const CONN = { id: 1, name: "Main", provider: "baileys" as const };
const CONTACT = "5511988887777";
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

// The QR keeps Baileys' own lifetime: the fake phone scans it once the app has stored it, which a busy machine
// may take longer than a shortened QR lasts.
function newDriver(db: ReturnType<typeof openDatabase>, fake: FakeWa) {
  const { driver, dispose } = testDriver(db, fake, { socketConfig: { shouldSyncHistoryMessage: () => false } });
  cleanup.push(dispose);
  return driver;
}

function newFake() {
  const fake = new FakeWa({ onWhatsApp: [CONTACT] });
  cleanup.push(() => fake.stop());
  return fake;
}

const isMessage = (id: string) => (n: BinaryNode) => n.tag === "message" && n.attrs.id === id;

describe("baileys driver: outbound failures", () => {
  async function paired(sink = new RecordingSink()) {
    const fake = newFake();
    const db = openDatabase(":memory:");
    runMigrations(db);
    sqliteClient(db).query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys')").run();
    const driver = newDriver(db, fake);
    await driver.start(CONN, sink);
    fake.scan(await sink.until(() => sink.statuses.find((s) => s.status === "qrcode")?.info?.qr));
    await sink.until(() => sink.statuses.find((s) => s.status === "CONNECTED"));
    return { fake, driver, sink };
  }

  test("a message the server refuses (an error ack) is reported as a rejection with its code, not as an ack", async () => {
    const { fake, driver, sink } = await paired();
    const id = driver.newMessageId(CONN.id);
    await driver.sendText(CONN.id, CONTACT, false, "olá", { messageId: id });
    await fake.waitFor(isMessage(id));
    fake.nack(CONTACT, id, "463");
    expect(await sink.until(() => sink.rejections.find((r) => r.id === id))).toEqual({ id, reason: "463" });
    expect(sink.acks.filter((a) => a.id === id && a.ack === 0)).toEqual([]);
  });

  test("a send while the link is down fails with ERR_WAPP_NOT_INITIALIZED, which keeps it waiting for the connection", async () => {
    const { fake, driver, sink } = await paired();
    const before = sink.statuses.length;
    fake.setDown(true);
    await sink.until(() => sink.statuses.slice(before).find((s) => s.status === "TIMEOUT"));
    const id = driver.newMessageId(CONN.id);
    await expect(driver.sendText(CONN.id, CONTACT, false, "olá", { messageId: id })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
  });

  test("a reconnect refused at once is retried even when storing its status takes a while (a database over the network)", async () => {
    const { fake, sink } = await paired(new SlowStatusSink());
    const before = sink.statuses.length;
    fake.setDown(true);
    // The second TIMEOUT means an attempt made during the outage was refused and noticed.
    await sink.until(() => sink.statuses.slice(before).filter((s) => s.status === "TIMEOUT").length >= 2);
    fake.setDown(false);
    await sink.until(() => sink.statuses.slice(before).find((s) => s.status === "CONNECTED"));
  });
});

/** Each status report takes a few milliseconds of I/O, as a write to a PostgreSQL server does. */
class SlowStatusSink extends RecordingSink {
  override async onStatus(...args: Parameters<RecordingSink["onStatus"]>) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await super.onStatus(...args);
  }
}

/** Resolves once `check` holds, re-checked on every realtime event the app publishes (no polling). */
function whenPublished<T>(
  hub: RecordingHub,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 8000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const publish = hub.publish.bind(hub);
    let settled = false;
    const restore = () => {
      settled = true;
      hub.publish = publish;
      clearTimeout(timer);
    };
    // Each event starts a check of its own; the first that holds (or throws) settles.
    const attempt = () => {
      Promise.resolve()
        .then(check)
        .then(
          (value) => {
            if (!value || settled) return;
            restore();
            resolve(value);
          },
          (error: unknown) => {
            if (settled) return;
            restore();
            reject(error);
          },
        );
    };
    const timer = setTimeout(() => {
      if (settled) return;
      restore();
      reject(new Error("timed out waiting for a realtime event"));
    }, timeoutMs);
    hub.publish = (...args) => {
      publish(...args);
      attempt();
    };
    attempt();
  });
}

describe("the outbox on a Baileys connection against the fake WhatsApp server", () => {
  async function app() {
    const fake = newFake();
    const ctx = await makeTestApp();
    ctx.channels.register(newDriver(ctx.db, fake));
    const conn = await one(ctx.db.insert(connections).values({ name: "Main", provider: "baileys" }).returning());
    const status = async () => (await firstRow(ctx.db.select().from(connections).where(eq(connections.id, conn.id))))!;
    await ctx.channels.start(conn.id);
    fake.scan(
      await whenPublished(ctx.hub, async () => (await status()).status === "qrcode" && (await status()).qrcode),
    );
    await whenPublished(ctx.hub, async () => (await status()).status === "CONNECTED");
    const { user, token } = await loginAs(ctx, { profile: "admin" });
    const contact = await one(ctx.db.insert(contacts).values({ name: "Ana", number: CONTACT }).returning());
    const ticket = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "open", userId: user.id, whatsappId: conn.id })
        .returning(),
    );
    return { fake, ctx, conn, status, token, ticket };
  }

  const rowOf = async (ctx: TestContext, id: number) =>
    (await firstRow(ctx.db.select().from(messages).where(eq(messages.id, id))))!;

  test("an agent's message written during a reconnect waits queued and goes out once the connection is back", async () => {
    const { fake, ctx, status, token, ticket } = await app();
    fake.setDown(true);
    await whenPublished(ctx.hub, async () => (await status()).status === "TIMEOUT");

    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token, body: { body: "Seu pedido saiu" } });
    expect(res.status).toBe(200);
    const [queued] = res.json.messages;
    expect(queued).toMatchObject({ sendState: "queued", ack: 0 });
    expect(fake.sent.some(isMessage(queued.wid))).toBe(false);

    fake.setDown(false);
    const stanza = await fake.waitFor(isMessage(queued.wid), 8000);
    expect((await fake.decryptFor(stanza, CONTACT)).extendedTextMessage?.text).toBe("Seu pedido saiu");
    await whenPublished(ctx.hub, async () => (await rowOf(ctx, queued.id)).sendState === "sent");
    expect(fake.sent.filter(isMessage(queued.wid))).toHaveLength(1);
  });

  test("a message WhatsApp refuses shows as failed, and a retry sends it again under a new id", async () => {
    const { fake, ctx, token, ticket } = await app();
    const res = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token, body: { body: "Oi" } });
    const [sent] = res.json.messages;
    expect(sent.sendState).toBe("sent");
    fake.nack(CONTACT, sent.wid, "463");
    const failed = await whenPublished(
      ctx.hub,
      async () => (await rowOf(ctx, sent.id)).sendState === "failed" && (await rowOf(ctx, sent.id)),
    );
    expect(failed.sendError).toBe("ERR_WAPP_MSG_REJECTED");

    const retried = await call(ctx.app, "POST", `/api/messages/${sent.id}/retry`, { token });
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ id: sent.id, sendState: "sent", sendError: null });
    expect(retried.json.wid).not.toBe(sent.wid);
    const again = await fake.waitFor(isMessage(retried.json.wid));
    expect((await fake.decryptFor(again, CONTACT)).extendedTextMessage?.text).toBe("Oi");
  });
});
