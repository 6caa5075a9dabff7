import { AsyncLocalStorage } from "node:async_hooks";
import { type SQL, type Subquery, sql } from "drizzle-orm";
import type { PgDatabase } from "drizzle-orm/pg-core";
import { type Db, pipelinesStatements, type Reader } from "./client";
import { pgArray } from "./pg-array";

/**
 * Reads of one kind that the writes of a transaction make side by side (a group commit's batch on PostgreSQL),
 * gathered into one statement for all their keys (`= any($1)`): PostgreSQL spends its CPU per statement, so a
 * batch of 32 messages reading their ticket, contact, tags… costs it about what one message did.
 */
interface Gathering {
  tx: Db;
  pending: Map<object, Map<string, Waiting>>;
}

interface Waiting {
  key: unknown;
  callers: { resolve: (value: unknown) => void; reject: (error: unknown) => void }[];
}

const gatherings = new AsyncLocalStorage<Gathering>();

/** Runs `work` (writes started side by side in transaction `tx`) with their gathered reads sent on `tx`. */
export function gatheringReads<T>(tx: Db, work: () => Promise<T>): Promise<T> {
  return gatherings.run({ tx, pending: new Map() }, work);
}

/** Per database, the gathering of reads made outside a transaction (see readTogether). */
const outside = new WeakMap<object, Gathering>();

/**
 * Runs `read` (gathered reads) outside a transaction, gathered with the reads of its kind asked for in the same
 * event-loop turn on `db`: the messages of a committed batch go on together, so their reads after the commit go
 * out as one statement for the batch. Where each statement waits for its round trip only (PostgreSQL).
 */
export function readTogether<T>(db: Db, read: () => Promise<T>): Promise<T> {
  if (!pipelinesStatements(db)) return read();
  let gathering = outside.get(db);
  if (!gathering) {
    gathering = { tx: db, pending: new Map() };
    outside.set(db, gathering);
  }
  return gatherings.run(gathering, read);
}

export interface GatheredReadOptions<K, V> {
  /** What identifies a key: the reads of equal keys share one answer. */
  idOf: (key: K) => string;
  /** The read of one key, outside a gathering (and everywhere on SQLite). */
  one: (db: Reader, key: K) => Promise<V | undefined>;
  /** The read of many keys in one statement (or one per connection), each answer under its key's id. */
  many: (tx: Db, keys: K[]) => Promise<Map<string, V>>;
}

/**
 * A read by key that, inside `gatheringReads`, waits for the end of the event loop's turn and is answered with
 * every other read of its kind asked for in that turn: the writes of a batch run in step (each waits for the same
 * kinds of answers), so they ask for the same kind in the same turn. Without a gathering it is `one`.
 */
export function gathered<K, V>(options: GatheredReadOptions<K, V>): (db: Reader, key: K) => Promise<V | undefined> {
  const read = (db: Reader, key: K): Promise<V | undefined> => {
    const gathering = gatherings.getStore();
    if (!gathering) return options.one(db, key);
    let waiting = gathering.pending.get(read);
    if (!waiting) {
      const batch = new Map<string, Waiting>();
      waiting = batch;
      gathering.pending.set(read, batch);
      setImmediate(() => {
        gathering.pending.delete(read);
        void answer(gathering.tx, batch, options);
      });
    }
    const id = options.idOf(key);
    let entry = waiting.get(id);
    if (!entry) {
      entry = { key, callers: [] };
      waiting.set(id, entry);
    }
    const callers = entry.callers;
    return new Promise<V | undefined>((resolve, reject) =>
      callers.push({ resolve: resolve as (value: unknown) => void, reject }),
    );
  };
  return read;
}

async function answer<K, V>(tx: Db, batch: Map<string, Waiting>, options: GatheredReadOptions<K, V>) {
  try {
    const keys = [...batch.values()].map((entry) => entry.key as K);
    // A key alone goes by the one-key statement, whose plan PostgreSQL keeps (an array's is planned each time).
    const found =
      keys.length === 1
        ? new Map([[batch.keys().next().value!, await options.one(tx, keys[0]!)]])
        : await options.many(tx, keys);
    for (const [id, entry] of batch) for (const caller of entry.callers) caller.resolve(found.get(id));
  } catch (error) {
    for (const entry of batch.values()) for (const caller of entry.callers) caller.reject(error);
  }
}

interface PreparedById {
  get(values: { id: number }): Promise<unknown>;
}
interface PreparedByIds {
  all(values: { ids: string }): Promise<unknown>;
}

/**
 * A row by id (`byId`, placeholder `id`), gathered into `byIds` (placeholder `ids`, an `int[]`, built with
 * `lookupEachKey`). The lists' `amongIdList` statement of the same rows is not reused here: with it a batch's
 * reads cost PostgreSQL more (P2, four runs each way: 505–622 µs against 382–532 µs per message).
 */
export function gatheredById<V extends { id: number }>(
  byId: (db: Reader) => PreparedById,
  byIds: (db: Reader) => PreparedByIds,
): (db: Reader, id: number) => Promise<V | undefined> {
  return gathered<number, V>({
    idOf: String,
    one: async (db, id) => (await byId(db).get({ id })) as V | undefined,
    many: async (tx, ids) => {
      const rows = (await byIds(tx).all({ ids: pgArray(ids) })) as V[];
      return new Map(rows.map((row) => [String(row.id), row]));
    },
  });
}

/**
 * The rows `lookup` finds for each key of `keys` (`unnest(…) as k(…)`, which `lookup` names): `from unnest(…)
 * cross join lateral (…)`, so each key is looked up by its own index. A plain `= any($1)` was planned as a scan
 * of the whole table on tables PostgreSQL has not analysed yet (a new server's: 1–3 ms a batch at 5,000 rows),
 * and a prepared statement keeps its plan.
 */
export function lookupEachKey(db: Reader, keys: SQL, lookup: object): PreparedRows {
  // `offset 0` keeps the lookup a subquery run for each key: merged into a join, it was planned as one again.
  const fenced = (lookup as { offset(n: SQL): { as(alias: string): Subquery } }).offset(sql`0`);
  const found = fenced.as("found") as Subquery & Record<string, unknown>;
  const fields = Object.fromEntries(Object.keys(found._.selectedFields).map((name) => [name, found[name]]));
  const pg = db as unknown as PgDatabase<never>;
  const query = pg
    .select(fields as Record<string, SQL>)
    .from(keys)
    .crossJoinLateral(found);
  return (query as unknown as { prepare(): PreparedRows }).prepare();
}

/** A prepared query as `prepared` takes it. */
interface PreparedRows {
  get(values?: Record<string, unknown>): Promise<unknown>;
  all(values?: Record<string, unknown>): Promise<unknown>;
  run(values?: Record<string, unknown>): Promise<unknown>;
}

/** The keys of `ids` (an `int[]` placeholder) as `k(id)`, for lookupEachKey. */
export const eachId = (placeholder: string) => sql`unnest(${sql.placeholder(placeholder)}::int[]) as k(id)`;
