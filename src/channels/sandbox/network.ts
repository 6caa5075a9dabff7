import { atomically, type Db, first } from "../../db/client";
import { rmSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { and, asc, eq, lt, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { sandboxMessages, waAuthCreds } from "../../db/tables";
import { makePrivateDir, PRIVATE_FILE } from "../../private-files";
import type { OversizedMedia, OwnPresence, StoredMedia } from "../types";
import type { SandboxChange, SandboxMessageRow } from "./controls";

/** Delays of the simulated delivery: server ack (1), delivered (2), played/seen by the device (3). */
export interface AckDelays {
  sent: number;
  delivered: number;
  device: number;
}

export interface SandboxNetworkOptions {
  db: Db;
  mediaDir: string;
  now?: () => number;
  /** Ack steps wait this long; `"manual"`: they wait until `settle()` (tests, so nothing fires after a test). */
  delays?: Partial<AckDelays> | "manual";
  /** Media a simulated phone sends beyond this size is not stored (MAX_MEDIA_MB; default 64 MB). */
  maxMediaBytes?: number;
}

interface Pairing {
  sandbox: true;
  number: string;
}

const MIMES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ogg": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
};

/** The extension a simulated file without a name gets from its kind (WhatsApp stickers are WebP images). */
const DEFAULT_EXTENSIONS: Record<string, string> = { image: ".jpg", audio: ".ogg", video: ".mp4", sticker: ".webp" };

/** Guesses a mimetype from a file name (sandbox media carry no type of their own). */
export function mimeOf(fileName: string, kind?: string): string {
  return (
    MIMES[extname(fileName).toLowerCase()] ??
    (kind === "image"
      ? "image/jpeg"
      : kind === "audio"
        ? "audio/ogg"
        : kind === "video"
          ? "video/mp4"
          : "application/octet-stream")
  );
}

type RecordRow = Omit<typeof sandboxMessages.$inferInsert, "id">;

/** Rows of one insert: PostgreSQL takes at most 65,535 parameters in a statement. */
const RECORDS_PER_STATEMENT = 1_000;

const credsOf = prepared((db) =>
  db
    .select()
    .from(waAuthCreds)
    .where(eq(waAuthCreds.whatsappId, sql.placeholder("connectionId")))
    .prepare(),
);

/**
 * The simulated WhatsApp network: the phones on the other side of sandbox connections. Everything it sees is
 * kept in `sandbox_messages` and the pairing in `wa_auth_creds`, so it survives a restart. Ack steps run on
 * timers that tests can flush with `settle()`.
 */
export class SandboxNetwork {
  readonly db: Db;
  readonly mediaDir: string;
  readonly now: () => number;
  readonly maxMediaBytes: number;
  private readonly delays: AckDelays | "manual";
  /** Pending ack steps; the key is the real timer, or a plain token when steps wait for `settle()`. */
  private readonly timers = new Map<ReturnType<typeof setTimeout> | symbol, () => Promise<void>>();
  private readonly listeners = new Set<(change: SandboxChange) => void>();
  /** The last presence each connection showed each phone (kept in memory only: presence is not a message). */
  private readonly presences = new Map<string, OwnPresence>();
  private queuedRecords: { row: RecordRow; done: (recorded: boolean) => void; failed: (error: unknown) => void }[] = [];

  constructor(options: SandboxNetworkOptions) {
    this.db = options.db;
    this.mediaDir = options.mediaDir;
    this.now = options.now ?? Date.now;
    this.maxMediaBytes = options.maxMediaBytes ?? 64 * 1024 * 1024;
    this.delays =
      options.delays === "manual" ? "manual" : { sent: 300, delivered: 1000, device: 2000, ...options.delays };
  }

  /** The fake but stable phone number of a sandbox connection. */
  static numberOf(connectionId: number): string {
    return `5500000000${connectionId}`;
  }

  async pairing(connectionId: number): Promise<Pairing | null> {
    const row = await credsOf(this.db).get({ connectionId });
    if (!row) return null;
    try {
      const parsed = JSON.parse(row.creds) as Partial<Pairing>;
      return parsed.sandbox && parsed.number ? (parsed as Pairing) : null;
    } catch {
      return null;
    }
  }

  async pair(connectionId: number): Promise<string> {
    const number = SandboxNetwork.numberOf(connectionId);
    const creds = JSON.stringify({ sandbox: true, number } satisfies Pairing);
    await this.db
      .insert(waAuthCreds)
      .values({ whatsappId: connectionId, creds })
      .onConflictDoUpdate({ target: waAuthCreds.whatsappId, set: { creds } });
    return number;
  }

  async unpair(connectionId: number) {
    await this.db.delete(waAuthCreds).where(eq(waAuthCreds.whatsappId, connectionId));
  }

  /**
   * Media sent by a simulated phone: written into the media directory, or, when larger than `maxMediaBytes`,
   * only named and sized (its size is known from the base64 length, so it is never decoded).
   */
  receiveMedia(
    base64: string,
    fileName: string | undefined,
    kind: string,
  ): { media: StoredMedia } | { oversized: OversizedMedia } {
    const originalName = fileName || `${kind}${DEFAULT_EXTENSIONS[kind] ?? ".bin"}`;
    const bytes = Buffer.byteLength(base64, "base64");
    if (bytes > this.maxMediaBytes) return { oversized: { fileName: originalName, bytes } };
    makePrivateDir(this.mediaDir);
    const stored = `${crypto.randomUUID()}${extname(originalName)
      .toLowerCase()
      .replace(/[^.a-z0-9]/g, "")}`;
    writeFileSync(join(this.mediaDir, stored), Buffer.from(base64, "base64"), { mode: PRIVATE_FILE });
    return { media: { fileName: stored, originalName, mimetype: mimeOf(originalName, kind) } };
  }

  /** Calls `listener` whenever a simulated phone's conversation changes (a message recorded, an ack raised). */
  /** The connection shows the phone `peer` that it is typing, or stopped. */
  showPresence(connectionId: number, peer: string, state: OwnPresence) {
    this.presences.set(`${connectionId}:${peer}`, state);
    this.changed({ whatsappId: connectionId, peer });
  }

  /** What the connection last showed the phone `peer`, or null when it showed nothing yet. */
  presenceShown(connectionId: number, peer: string): OwnPresence | null {
    return this.presences.get(`${connectionId}:${peer}`) ?? null;
  }

  subscribe(listener: (change: SandboxChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: SandboxChange | undefined) {
    if (change) for (const listener of this.listeners) listener(change);
  }

  /** Records a message on the network; returns false when that id was already recorded. */
  async record(row: RecordRow): Promise<boolean> {
    const inserted = await this.insertRecord(row);
    this.changed(inserted);
    return !!inserted;
  }

  /**
   * Like `record`, for what the simulated phones send: the records asked for in one turn of the event loop are
   * written by one statement, so a burst of inbound messages does not pay a statement and a commit each.
   */
  recordSoon(row: RecordRow): Promise<boolean> {
    return new Promise((done, failed) => {
      if (this.queuedRecords.push({ row, done, failed }) === 1)
        setImmediate(() => {
          // One batch at a time: two could otherwise wait on each other's rows (the same message twice).
          this.recording = this.recording.then(() => this.writeQueuedRecords());
        });
    });
  }

  private recording: Promise<void> = Promise.resolve();

  private async writeQueuedRecords() {
    const batch = this.queuedRecords;
    this.queuedRecords = [];
    // A message id twice in one batch is recorded once, by its first arrival.
    const firsts = new Map<string, RecordRow>();
    for (const { row } of batch) if (!firsts.has(row.wid)) firsts.set(row.wid, row);
    let inserted: Map<string, SandboxChange>;
    try {
      inserted = await this.insertRecords([...firsts.values()]);
    } catch (error) {
      for (const { failed } of batch) failed(error);
      return;
    }
    for (const { row, done } of batch) {
      const change = firsts.get(row.wid) === row ? inserted.get(row.wid) : undefined;
      this.changed(change);
      done(!!change);
    }
  }

  /**
   * Inserts the rows whose id is new, a statement per RECORDS_PER_STATEMENT (one for any burst seen in
   * practice); answers what changed by message id.
   */
  private async insertRecords(rows: RecordRow[]): Promise<Map<string, SandboxChange>> {
    const createdAt = new Date(this.now());
    const changes = new Map<string, SandboxChange>();
    for (let from = 0; from < rows.length; from += RECORDS_PER_STATEMENT) {
      const inserted = await this.db
        .insert(sandboxMessages)
        .values(rows.slice(from, from + RECORDS_PER_STATEMENT).map((row) => ({ createdAt, ...row })))
        .onConflictDoNothing({ target: sandboxMessages.wid })
        .returning({ wid: sandboxMessages.wid, whatsappId: sandboxMessages.whatsappId, peer: sandboxMessages.peer });
      for (const { wid, ...change } of inserted) changes.set(wid, change);
    }
    return changes;
  }

  private async insertRecord(row: RecordRow): Promise<SandboxChange | undefined> {
    return await first(
      this.db
        .insert(sandboxMessages)
        .values({ createdAt: new Date(this.now()), ...row })
        .onConflictDoNothing({ target: sandboxMessages.wid })
        .returning({ whatsappId: sandboxMessages.whatsappId, peer: sandboxMessages.peer }),
    );
  }

  /** Messages a connection sent, oldest first, optionally only to one peer. */
  async outbox(connectionId: number, to?: string): Promise<SandboxMessageRow[]> {
    const where = and(
      eq(sandboxMessages.whatsappId, connectionId),
      eq(sandboxMessages.direction, "out"),
      to ? eq(sandboxMessages.peer, to) : undefined,
    );
    return await this.db.select().from(sandboxMessages).where(where).orderBy(asc(sandboxMessages.id));
  }

  async byWid(wid: string): Promise<SandboxMessageRow | undefined> {
    return await first(this.db.select().from(sandboxMessages).where(eq(sandboxMessages.wid, wid)));
  }

  /** The network refuses a message the connection sent (a nack): the simulated phone never gets it. False when unknown. */
  async reject(connectionId: number, wid: string): Promise<boolean> {
    const where = and(
      eq(sandboxMessages.whatsappId, connectionId),
      eq(sandboxMessages.wid, wid),
      eq(sandboxMessages.direction, "out"),
    );
    const row = await atomically(
      this.db,
      async (tx) =>
        await first(
          tx.delete(sandboxMessages).where(where).returning({
            whatsappId: sandboxMessages.whatsappId,
            peer: sandboxMessages.peer,
            mediaPath: sandboxMessages.mediaPath,
          }),
        ),
    );
    if (!row) return false;
    if (row.mediaPath) rmSync(row.mediaPath, { force: true });
    this.changed({ whatsappId: row.whatsappId, peer: row.peer });
    return true;
  }

  /** The message was deleted for everyone: the simulated phone no longer shows its content. */
  async revoke(wid: string) {
    await this.db.update(sandboxMessages).set({ body: "", mediaType: "revoked" }).where(eq(sandboxMessages.wid, wid));
  }

  /** Raises a message's ack (never lowers it); returns true when it changed. */
  async setAck(wid: string, ack: number): Promise<boolean> {
    const row = await first(
      this.db
        .update(sandboxMessages)
        .set({ ack })
        .where(and(eq(sandboxMessages.wid, wid), lt(sandboxMessages.ack, ack)))
        .returning({ whatsappId: sandboxMessages.whatsappId, peer: sandboxMessages.peer }),
    );
    this.changed(row);
    return !!row;
  }

  /** The simulated contact reads every message the connection sent them: returns the ids raised to 4. */
  async readAll(connectionId: number, peer: string): Promise<string[]> {
    const read = (
      await this.db
        .update(sandboxMessages)
        .set({ ack: 4 })
        .where(
          and(
            eq(sandboxMessages.whatsappId, connectionId),
            eq(sandboxMessages.direction, "out"),
            eq(sandboxMessages.peer, peer),
            lt(sandboxMessages.ack, 4),
          ),
        )
        .returning({ wid: sandboxMessages.wid })
    ).map((r) => r.wid);
    if (read.length) this.changed({ whatsappId: connectionId, peer });
    return read;
  }

  /** Schedules the ack walk 1→2→3 of a sent message; `report` is called for each step that raised the ack. */
  walkAcks(wid: string, report: (ack: number) => void | Promise<void>) {
    const step = (ack: number) => async () => {
      if (await this.setAck(wid, ack)) await report(ack);
    };
    this.schedule(step(1), "sent");
    this.schedule(step(2), "delivered");
    this.schedule(step(3), "device");
  }

  /** Runs every pending timer now, in due order (tests). */
  async settle() {
    const pending = [...this.timers.entries()];
    this.timers.clear();
    for (const [handle, fn] of pending) {
      if (typeof handle !== "symbol") clearTimeout(handle);
      await fn();
    }
  }

  /** Cancels every pending timer (shutdown). */
  cancelAll() {
    for (const handle of this.timers.keys()) if (typeof handle !== "symbol") clearTimeout(handle);
    this.timers.clear();
  }

  private schedule(fn: () => Promise<void>, step: keyof AckDelays) {
    if (this.delays === "manual") return void this.timers.set(Symbol(step), fn);
    const handle = setTimeout(() => {
      this.timers.delete(handle);
      void fn();
    }, this.delays[step]);
    this.timers.set(handle, fn);
  }
}
