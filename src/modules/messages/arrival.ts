import { and, eq, getTableColumns, ne, type Placeholder, type SQL, type Subquery, sql } from "drizzle-orm";
import type { PgDatabase } from "drizzle-orm/pg-core";
import type { Reader } from "../../db/client";
import { gathered } from "../../db/gathered";
import { pgArray } from "../../db/pg-array";
import { type PreparedQuery, prepared } from "../../db/prepared";
import { type ContactRow, contacts, messages } from "../../db/tables";
import { WAITING } from "./records";

/** What an inbound message's arrival asks before anything else. */
export interface Arrival {
  /** A message is stored for good under its network id (a `waiting` placeholder is still to be replaced). */
  storedForGood: boolean;
  /** The contact holding the chat's number, if any. */
  contact: ContactRow | undefined;
}

/**
 * Whether a message arriving on the connection is stored for good, and the contact holding its chat's number
 * (none looked up when `number` is null), in one statement: every inbound message asks both first, and on
 * PostgreSQL each statement costs a round trip and the server's CPU. Read with readTogether, the arrivals of
 * the moment share one statement.
 */
export async function arrivalOf(
  db: Reader,
  connectionId: number,
  wid: string,
  number: string | null,
): Promise<Arrival> {
  const { storedId, ...contact } = (await gatheredArrival(db, { connectionId, wid, number }))!;
  return { storedForGood: storedId !== null, contact: contact.id === null ? undefined : (contact as ContactRow) };
}

interface ArrivalKey {
  connectionId: number;
  wid: string;
  number: string | null;
}

type ArrivalRow = { storedId: number | null } & { [K in keyof ContactRow]: ContactRow[K] | null };

const arrivalId = ({ connectionId, wid, number }: ArrivalKey) => JSON.stringify([connectionId, wid, number]);

/** The arrivals of a moment: one statement per connection, each key looked up by its own indexes. */
const gatheredArrival = gathered<ArrivalKey, ArrivalRow>({
  idOf: arrivalId,
  one: async (db, key) => (await arrivalRow(db).get({ ...key })) as ArrivalRow,
  many: async (tx, keys) => {
    const found = new Map<string, ArrivalRow>();
    for (const [connectionId, list] of Map.groupBy(keys, (key) => key.connectionId)) {
      const rows = (await arrivalRows(tx).all({
        connectionId,
        wids: pgArray(list.map((key) => key.wid)),
        numbers: pgArray(list.map((key) => key.number)),
      })) as ({ n: number } & ArrivalRow)[];
      for (const { n, ...row } of rows) found.set(arrivalId(list[n - 1]!), row);
    }
    return found;
  },
});

/** Whether the connection's message `wid` (a column or parameter) is stored for good: its id, or null. */
function storedIdOf(db: Reader, wid: SQL | Placeholder) {
  return sql<number | null>`(${db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.whatsappId, sql.placeholder("connectionId")),
        sql`${messages.wid} = ${wid}`,
        ne(messages.mediaType, WAITING),
      ),
    )})`.mapWith(Number);
}

const arrivalRow = prepared((db) =>
  db
    .select({ storedId: storedIdOf(db, sql.placeholder("wid")), ...getTableColumns(contacts) })
    // The number as a column of the one-row source: compared with a parameter in the join, SQLite took about 8 µs.
    .from(sql`(select cast(${sql.placeholder("number")} as text) as number) as arrival`)
    .leftJoin(contacts, eq(contacts.number, sql`arrival.number`))
    .prepare(),
);

/** The arrivals of `wids` (a `text[]`) and their `numbers` (a `text[]`, nulls allowed), each row under its key's place `n`. */
const arrivalRows = prepared((db) => {
  // `offset 0` keeps the lookup a subquery run for each key, by the contacts' number index.
  const contact = db
    .select()
    .from(contacts)
    .where(sql`${contacts.number} = k.number`)
    .offset(sql`0` as unknown as number)
    .as("contact") as unknown as Subquery & Record<string, SQL>;
  const fields = Object.fromEntries(Object.keys(getTableColumns(contacts)).map((name) => [name, contact[name]!]));
  const pg = db as unknown as PgDatabase<never>;
  const query = pg
    .select({ n: sql<number>`k.n`.mapWith(Number), storedId: storedIdOf(db, sql`k.wid`), ...fields })
    .from(
      sql`unnest(${sql.placeholder("wids")}::text[], ${sql.placeholder("numbers")}::text[]) with ordinality as k(wid, number, n)`,
    )
    .leftJoinLateral(contact, sql`true`);
  return (query as unknown as { prepare(): PreparedQuery }).prepare();
});
