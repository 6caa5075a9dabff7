import { type Db, first } from "../../db/client";
import { proto } from "baileys";
import { and, eq, lt } from "drizzle-orm";
import { waSentMessages } from "../../db/tables";

const DAY = 24 * 3600_000;
const PRUNE_EVERY = 3600_000;

/**
 * The content of every message a connection sent, as proto.Message bytes (JSON would turn bytes and Longs into
 * strings). WhatsApp asks for a message again (retry receipt) when a recipient device could not decrypt it,
 * often after one side reconnected; Baileys' own cache of recent sends is lost with each socket, so Baileys'
 * `getMessage` reads this store. Without it the customer sees "Waiting for this message" for good.
 * Rows older than `keepDays` are pruned, at most once an hour.
 */
export class SentMessageStore {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly keepDays = 30,
  ) {}

  async save(connectionId: number, wid: string, message: proto.IMessage) {
    const content = Buffer.from(proto.Message.encode(message).finish());
    const createdAt = new Date(this.now());
    await this.db
      .insert(waSentMessages)
      .values({ whatsappId: connectionId, wid, content, createdAt })
      .onConflictDoUpdate({ target: [waSentMessages.whatsappId, waSentMessages.wid], set: { content, createdAt } });
    if (this.now() - this.lastPrune >= PRUNE_EVERY) await this.prune();
  }

  async get(connectionId: number, wid: string): Promise<proto.Message | undefined> {
    const row = await first(
      this.db
        .select({ content: waSentMessages.content })
        .from(waSentMessages)
        .where(and(eq(waSentMessages.whatsappId, connectionId), eq(waSentMessages.wid, wid))),
    );
    return row ? proto.Message.decode(row.content) : undefined;
  }

  /** Deletes what is older than the retention period (every connection); returns how many rows went. */
  async prune(): Promise<number> {
    this.lastPrune = this.now();
    const cutoff = new Date(this.now() - this.keepDays * DAY);
    return (
      await this.db
        .delete(waSentMessages)
        .where(lt(waSentMessages.createdAt, cutoff))
        .returning({ wid: waSentMessages.wid })
    ).length;
  }
}
