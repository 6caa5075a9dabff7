import {
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type AuthenticationCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from "baileys";
import { and, eq, inArray, sql } from "drizzle-orm";
import { atomically, type Db, first } from "../../db/client";
import { prepared } from "../../db/prepared";
import { waAuthCreds, waAuthKeys, waSentMessages } from "../../db/tables";
import { TtlCache } from "./cache";

const CHUNK = 500;
const KEY_CACHE_TTL = 5 * 60_000;
const KEY_CACHE_MAX = 20_000;

type ILogger = NonNullable<Parameters<typeof makeCacheableSignalKeyStore>[1]>;

export interface SqliteAuthState {
  state: { creds: AuthenticationCreds; keys: SignalKeyStore };
  saveCreds: () => Promise<void>;
  /** Deletes this connection's credentials, keys, phone book and sent-message content in one transaction; later writes are ignored. */
  wipe: () => Promise<void>;
}

/** Baileys auth state for one connection, stored in wa_auth_creds / wa_auth_keys (BufferJSON encoded). */
export async function useSqliteAuthState(db: Db, connectionId: number): Promise<SqliteAuthState> {
  const ofConnection = eq(waAuthKeys.whatsappId, connectionId);
  // After a wipe, late writes from a closing socket must not bring credentials or keys back.
  let wiped = false;
  const stored = await first(
    db.select({ creds: waAuthCreds.creds }).from(waAuthCreds).where(eq(waAuthCreds.whatsappId, connectionId)),
  );
  const creds: AuthenticationCreds = stored ? JSON.parse(stored.creds, BufferJSON.reviver) : initAuthCreds();

  const get = async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
    const out: { [id: string]: SignalDataTypeMap[T] } = {};
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      // One key is what Baileys asks for as a rule: that statement is prepared once, not built by drizzle each time.
      const rows =
        chunk.length === 1
          ? ((await keyRow(db).all({ connectionId, type, keyId: chunk[0] })) as { keyId: string; value: string }[])
          : await db
              .select({ keyId: waAuthKeys.keyId, value: waAuthKeys.value })
              .from(waAuthKeys)
              .where(and(ofConnection, eq(waAuthKeys.type, type), inArray(waAuthKeys.keyId, chunk)));
      for (const row of rows) {
        let value = JSON.parse(row.value, BufferJSON.reviver);
        if (type === "app-state-sync-key" && value) value = proto.Message.AppStateSyncKeyData.fromObject(value);
        out[row.keyId] = value;
      }
    }
    return out;
  };

  // One transaction per call: Baileys commits each logical key transaction through a single set().
  const setAll = async (data: SignalDataSet) =>
    await atomically(db, async (tx) => {
      for (const type of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
        const entries = data[type];
        if (!entries) continue;
        for (const [keyId, value] of Object.entries(entries)) {
          const key = { connectionId, type, keyId };
          if (value === null || value === undefined) await deleteKey(tx).run(key);
          else await upsertKey(tx).run({ ...key, value: JSON.stringify(value, BufferJSON.replacer) });
        }
      }
    });

  const clear = async () => {
    await atomically(db, (tx) => tx.delete(waAuthKeys).where(ofConnection));
  };

  const wipeAll = async () =>
    await atomically(db, async (tx) => {
      await tx.delete(waAuthKeys).where(ofConnection);
      await tx.delete(waAuthCreds).where(eq(waAuthCreds.whatsappId, connectionId));
      // Retry receipts are addressed to the device being unlinked, so its sent content can never be asked for again.
      await tx.delete(waSentMessages).where(eq(waSentMessages.whatsappId, connectionId));
    });

  return {
    state: {
      creds,
      keys: {
        get,
        set: async (data) => {
          if (!wiped) await setAll(data);
        },
        clear,
      },
    },
    saveCreds: async () => {
      if (wiped) return;
      const json = JSON.stringify(creds, BufferJSON.replacer);
      await atomically(db, (tx) =>
        tx
          .insert(waAuthCreds)
          .values({ whatsappId: connectionId, creds: json, updatedAt: new Date() })
          .onConflictDoUpdate({ target: waAuthCreds.whatsappId, set: { creds: json, updatedAt: new Date() } }),
      );
    },
    wipe: async () => {
      wiped = true;
      await wipeAll();
    },
  };
}

/** One key of one connection, by placeholders (built with the statements: the tables are chosen at composition). */
const keyOf = () =>
  and(
    eq(waAuthKeys.whatsappId, sql.placeholder("connectionId")),
    eq(waAuthKeys.type, sql.placeholder("type")),
    eq(waAuthKeys.keyId, sql.placeholder("keyId")),
  );

const keyRow = prepared((db) =>
  db.select({ keyId: waAuthKeys.keyId, value: waAuthKeys.value }).from(waAuthKeys).where(keyOf()).prepare(),
);

const upsertKey = prepared((db) =>
  db
    .insert(waAuthKeys)
    .values({
      whatsappId: sql.placeholder("connectionId"),
      type: sql.placeholder("type"),
      keyId: sql.placeholder("keyId"),
      value: sql.placeholder("value"),
    } as unknown as typeof waAuthKeys.$inferInsert)
    .onConflictDoUpdate({
      target: [waAuthKeys.whatsappId, waAuthKeys.type, waAuthKeys.keyId],
      set: { value: sql`excluded.value` },
    })
    .prepare(),
);

const deleteKey = prepared((db) => db.delete(waAuthKeys).where(keyOf()).prepare());

/**
 * The key store a socket gets: Baileys' read cache over the SQLite store, bounded (5 minutes, 20 000 keys) so
 * many connections cannot grow memory without limit. Every write still reaches SQLite, and Baileys commits each
 * of its key transactions through a single set(), which the SQLite store runs as one transaction.
 */
export function cachedKeyStore(keys: SignalKeyStore, logger?: ILogger, now: () => number = Date.now): SignalKeyStore {
  return makeCacheableSignalKeyStore(keys, logger, new TtlCache(KEY_CACHE_TTL, KEY_CACHE_MAX, now));
}
