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
import type { Db } from "../../db/client";
import { TtlCache } from "./cache";

const CHUNK = 500;
const KEY_CACHE_TTL = 5 * 60_000;
const KEY_CACHE_MAX = 20_000;

type ILogger = NonNullable<Parameters<typeof makeCacheableSignalKeyStore>[1]>;

export interface SqliteAuthState {
  state: { creds: AuthenticationCreds; keys: SignalKeyStore };
  saveCreds: () => void;
  /** Deletes this connection's credentials, keys, phone book and sent-message content in one transaction; later writes are ignored. */
  wipe: () => void;
}

/** Baileys auth state for one connection, stored in wa_auth_creds / wa_auth_keys (BufferJSON encoded). */
export function useSqliteAuthState(db: Db, connectionId: number): SqliteAuthState {
  const sql = db.$client;
  const readCreds = sql.query<{ creds: string }, [number]>("SELECT creds FROM wa_auth_creds WHERE whatsapp_id = ?");
  const writeCreds = sql.query(
    "INSERT INTO wa_auth_creds (whatsapp_id, creds, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(whatsapp_id) DO UPDATE SET creds = excluded.creds, updated_at = excluded.updated_at",
  );
  const upsertKey = sql.query(
    "INSERT INTO wa_auth_keys (whatsapp_id, type, key_id, value) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(whatsapp_id, type, key_id) DO UPDATE SET value = excluded.value",
  );
  const deleteKey = sql.query("DELETE FROM wa_auth_keys WHERE whatsapp_id = ?1 AND type = ?2 AND key_id = ?3");

  // After a wipe, late writes from a closing socket must not bring credentials or keys back.
  let wiped = false;
  const stored = readCreds.get(connectionId);
  const creds: AuthenticationCreds = stored ? JSON.parse(stored.creds, BufferJSON.reviver) : initAuthCreds();

  const get = async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
    const out: { [id: string]: SignalDataTypeMap[T] } = {};
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const marks = chunk.map(() => "?").join(",");
      const rows = sql
        .query<{ key_id: string; value: string }, (string | number)[]>(
          `SELECT key_id, value FROM wa_auth_keys WHERE whatsapp_id = ? AND type = ? AND key_id IN (${marks})`,
        )
        .all(connectionId, type, ...chunk);
      for (const row of rows) {
        let value = JSON.parse(row.value, BufferJSON.reviver);
        if (type === "app-state-sync-key" && value) value = proto.Message.AppStateSyncKeyData.fromObject(value);
        out[row.key_id] = value;
      }
    }
    return out;
  };

  // One transaction per call: Baileys commits each logical key transaction through a single set().
  const setAll = sql.transaction((data: SignalDataSet) => {
    for (const type of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
      const entries = data[type];
      if (!entries) continue;
      for (const [id, value] of Object.entries(entries)) {
        if (value === null || value === undefined) deleteKey.run(connectionId, type, id);
        else upsertKey.run(connectionId, type, id, JSON.stringify(value, BufferJSON.replacer));
      }
    }
  });

  const clear = async () => {
    sql.query("DELETE FROM wa_auth_keys WHERE whatsapp_id = ?").run(connectionId);
  };

  const wipeAll = sql.transaction(() => {
    sql.query("DELETE FROM wa_auth_keys WHERE whatsapp_id = ?").run(connectionId);
    sql.query("DELETE FROM wa_auth_creds WHERE whatsapp_id = ?").run(connectionId);
    // Retry receipts are addressed to the device being unlinked, so its sent content can never be asked for again.
    sql.query("DELETE FROM wa_sent_messages WHERE whatsapp_id = ?").run(connectionId);
  });

  return {
    state: {
      creds,
      keys: {
        get,
        set: async (data) => {
          if (!wiped) setAll(data);
        },
        clear,
      },
    },
    saveCreds: () => {
      if (wiped) return;
      writeCreds.run(connectionId, JSON.stringify(creds, BufferJSON.replacer), Date.now());
    },
    wipe: () => {
      wiped = true;
      wipeAll();
    },
  };
}

/**
 * The key store a socket gets: Baileys' read cache over the SQLite store, bounded (5 minutes, 20 000 keys) so
 * many connections cannot grow memory without limit. Every write still reaches SQLite, and Baileys commits each
 * of its key transactions through a single set(), which the SQLite store runs as one transaction.
 */
export function cachedKeyStore(keys: SignalKeyStore, logger?: ILogger, now: () => number = Date.now): SignalKeyStore {
  return makeCacheableSignalKeyStore(keys, logger, new TtlCache(KEY_CACHE_TTL, KEY_CACHE_MAX, now));
}
