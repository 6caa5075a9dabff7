import { type SQL, eq, sql } from "drizzle-orm";
import type { PgDatabase } from "drizzle-orm/pg-core";
import type { Db, Writer } from "../../db/client";
import { gathered } from "../../db/gathered";
import { prepared, preparedPerCount, rowPlaceholder } from "../../db/prepared";
import { storedInstant, type TicketRow, tickets } from "../../db/tables";

/**
 * What a message does to its ticket besides moving its time: a customer's (`inbound`) counts as unread and starts
 * the wait for a reply unless one is running; an agent's typed reply (`answer`) ends that wait.
 */
export type MessageEffect = "inbound" | "answer" | "none";

/** What the list shows of a ticket's last message a person wrote: `lastMessage` and the preview columns. */
export type TicketShown = Pick<
  TicketRow,
  "lastMessage" | "previewKind" | "previewText" | "previewDetail" | "previewFromMe" | "previewAck" | "previewMessageId"
>;

export const SHOWN_COLUMNS = [
  "lastMessage",
  "previewKind",
  "previewText",
  "previewDetail",
  "previewFromMe",
  "previewAck",
  "previewMessageId",
] as const satisfies (keyof TicketShown)[];

/**
 * A new message moves the ticket's time, with its effect (see MessageEffect), and becomes what the list shows
 * unless `shown` is null (an automatic message): one update, in the transaction that stores the message, which
 * answers the ticket as it leaves it.
 */
export async function touchLastMessage(
  tx: Writer,
  ticketId: number,
  shown: TicketShown | null,
  at: Date,
  effect: MessageEffect,
): Promise<TicketRow | undefined> {
  if (shown)
    return await gatheredTouch(tx, { call: ++touches, effect, touch: { ticketId, at: storedInstant(at), shown } });
  return await timeStatements[effect](tx).get({ ticketId, at: storedInstant(at) });
}

let touches = 0;

/** The tickets of a batch's new messages moved in one statement per effect (see gathered). */
const gatheredTouch = gathered<{ call: number; effect: MessageEffect; touch: Touch }, TicketRow>({
  idOf: ({ call }) => String(call),
  one: async (tx, { effect, touch }) =>
    (await touchStatements[effect](tx as Writer).get({ ticketId: touch.ticketId, at: touch.at, ...touch.shown })) as
      | TicketRow
      | undefined,
  many: async (tx, keys) => {
    const found = new Map<string, TicketRow>();
    for (const [effect, list] of Map.groupBy(keys, (key) => key.effect)) {
      const touched = new Map(
        (
          await touchTogether(
            tx,
            effect,
            list.map((key) => key.touch),
          )
        ).map((t) => [t.id, t]),
      );
      for (const key of list) found.set(String(key.call), touched.get(key.touch.ticketId)!);
    }
    return found;
  },
});

const touch = (db: Writer, effect: MessageEffect, withShown: boolean) =>
  db
    .update(tickets)
    .set({
      ...(withShown ? Object.fromEntries(SHOWN_COLUMNS.map((c) => [c, sql`${sql.placeholder(c)}`])) : {}),
      // Epoch ms, as the column stores it.
      updatedAt: sql`${sql.placeholder("at")}`,
      ...(effect === "inbound"
        ? {
            unreadMessages: sql`${tickets.unreadMessages} + 1`,
            waitingSince: sql`coalesce(${tickets.waitingSince}, ${sql.placeholder("at")})`,
          }
        : {}),
      ...(effect === "answer" ? { waitingSince: null } : {}),
    })
    .where(eq(tickets.id, sql.placeholder("ticketId")))
    .returning()
    .prepare();
const touchStatements = {
  inbound: prepared((db) => touch(db, "inbound", true)),
  answer: prepared((db) => touch(db, "answer", true)),
  none: prepared((db) => touch(db, "none", true)),
};
const timeStatements = {
  inbound: prepared((db) => touch(db, "inbound", false)),
  answer: prepared((db) => touch(db, "answer", false)),
  none: prepared((db) => touch(db, "none", false)),
};

/** A ticket's new last message, as touchLastMessage moves it. */
export interface Touch {
  ticketId: number;
  /** As the column stores it (storedInstant). */
  at: unknown;
  shown: TicketShown;
}

/**
 * The tickets of a batch's new messages moved in one UPDATE … FROM (VALUES …), as touchLastMessage moves each
 * (same `effect` for all). A batch holds one message per chat, so their tickets are distinct; one ticket twice
 * would be moved once, so it is refused (and the batch is written in turn).
 */
export async function touchTogether(tx: Db, effect: MessageEffect, touches: readonly Touch[]): Promise<TicketRow[]> {
  if (new Set(touches.map((touch) => touch.ticketId)).size < touches.length)
    throw new Error("one ticket moved twice in one statement");
  const values: Record<string, unknown> = {};
  touches.forEach(({ ticketId, at, shown }, i) => {
    values[rowPlaceholder("id", i)] = ticketId;
    values[rowPlaceholder("at", i)] = at;
    for (const column of SHOWN_COLUMNS) values[rowPlaceholder(column, i)] = shown[column];
  });
  return (await touchStatementsTogether[effect](tx, touches.length).all(values)) as TicketRow[];
}

/** `count` tickets moved in one UPDATE … FROM (VALUES …), each row's values named `<name>_<row>`. */
const touchTogetherOf = (effect: MessageEffect) =>
  preparedPerCount((db, count) => {
    const rows = Array.from({ length: count }, (_, i) => {
      const value = (name: string) => sql.placeholder(rowPlaceholder(name, i));
      return sql`(${value("id")}::int, ${value("lastMessage")}::text, ${value("previewKind")}::text, ${value("previewText")}::text, ${value("previewDetail")}::text, ${value("previewFromMe")}::boolean, ${value("previewAck")}::int, ${value("previewMessageId")}::int, ${value("at")}::timestamptz)`;
    });
    const values = sql`(values ${sql.join(rows, sql`, `)}) as v(id, last_message, preview_kind, preview_text, preview_detail, preview_from_me, preview_ack, preview_message_id, at)`;
    const pg = db as unknown as PgDatabase<never>;
    const query = pg
      .update(tickets as never)
      .set({
        lastMessage: sql`v.last_message`,
        previewKind: sql`v.preview_kind`,
        previewText: sql`v.preview_text`,
        previewDetail: sql`v.preview_detail`,
        previewFromMe: sql`v.preview_from_me`,
        previewAck: sql`v.preview_ack`,
        previewMessageId: sql`v.preview_message_id`,
        updatedAt: sql`v.at`,
        ...effectOn(effect),
      } as never)
      .from(values)
      .where(sql`${tickets.id} = v.id`)
      .returning();
    return (query as unknown as { prepare(): PreparedRows }).prepare();
  });

interface PreparedRows {
  get(values?: Record<string, unknown>): Promise<unknown>;
  all(values?: Record<string, unknown>): Promise<unknown>;
  run(values?: Record<string, unknown>): Promise<unknown>;
}

const touchStatementsTogether = {
  inbound: touchTogetherOf("inbound"),
  answer: touchTogetherOf("answer"),
  none: touchTogetherOf("none"),
};

function effectOn(effect: MessageEffect): Record<string, SQL | null> {
  if (effect === "inbound")
    return {
      unreadMessages: sql`${tickets.unreadMessages} + 1`,
      waitingSince: sql`coalesce(${tickets.waitingSince}, v.at)`,
    };
  return effect === "answer" ? { waitingSince: null } : {};
}
