import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Config } from "../config";
import { prepareDataDir, refuseOtherUsersDir } from "../data-dirs";
import { hasTable, refuseNewerSqliteSchema } from "../db/migrate";
import { extractTar, isTar, TarWriter } from "./tar";

const DB_ENTRY = "zapdesk.sqlite";

/**
 * A consistent copy of the live database (`VACUUM INTO` reads one snapshot, so the server keeps writing while it
 * runs), optionally with the media folder as a tar archive. The media is copied after the snapshot, so every file
 * the copied database points to is there.
 */
export async function backup(
  config: Pick<Config, "databasePath" | "mediaDir">,
  out: string,
  opts: { withMedia?: boolean } = {},
) {
  if (!existsSync(config.databasePath)) throw new Error(`no database at ${config.databasePath}`);
  if (existsSync(out)) throw new Error(`${out} already exists`);
  mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
  if (!opts.withMedia) return snapshot(config.databasePath, out);
  const copy = `${out}.sqlite.part`;
  snapshot(config.databasePath, copy);
  const tar = new TarWriter(`${out}.part`);
  try {
    await tar.addFile(DB_ENTRY, copy);
    for (const name of mediaFiles(config.mediaDir)) await tar.addFile(`media/${name}`, join(config.mediaDir, name));
  } finally {
    tar.close();
    rmSync(copy, { force: true });
  }
  renameSync(`${out}.part`, out);
}

/** Copies the database's current snapshot into a new file. */
export function snapshot(databasePath: string, out: string) {
  const db = new Database(databasePath, { readonly: true });
  try {
    db.run("VACUUM INTO ?", [out]);
  } finally {
    db.close();
  }
}

/**
 * Restores a backup (a database copy or a tar with media) into DATA_DIR. A database that already holds users is
 * kept unless `force`: restoring replaces everything in it. The server must be stopped while this runs. All or
 * nothing: the copy's database is checked before its media are moved in or anything is replaced, and a rejected
 * copy leaves nothing behind.
 */
export function restore(
  config: Pick<Config, "databasePath" | "mediaDir" | "dataDir">,
  file: string,
  opts: { force?: boolean } = {},
) {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  if (!opts.force && hasUsers(config.databasePath)) {
    throw new Error(`${config.databasePath} is not empty (it has users): pass --force to replace it`);
  }
  refuseOtherUsersDir(config.dataDir, "DATA_DIR");
  const newDataDir = !existsSync(config.dataDir);
  prepareDataDir(config.dataDir, "DATA_DIR");
  const incoming = `${config.databasePath}.restoring`;
  const staging = join(config.dataDir, ".restore");
  rmSync(incoming, { force: true });
  rmSync(staging, { recursive: true, force: true });
  try {
    if (isTar(file)) {
      const names = extractTar(file, staging, (name) => name === DB_ENTRY || name.startsWith("media/"));
      if (!names.includes(DB_ENTRY)) throw new Error(`it holds no ${DB_ENTRY}`);
      renameSync(join(staging, DB_ENTRY), incoming);
    } else {
      snapshot(file, incoming);
    }
    checkDatabase(incoming);
  } catch (error) {
    rmSync(incoming, { force: true });
    rmSync(staging, { recursive: true, force: true });
    if (newDataDir) rmSync(config.dataDir, { recursive: true, force: true });
    throw new Error(`cannot restore ${file}: ${(error as Error).message}`);
  }
  moveMedia(join(staging, "media"), config.mediaDir);
  rmSync(staging, { recursive: true, force: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(config.databasePath + suffix, { force: true });
  renameSync(incoming, config.databasePath);
}

/** True when the database exists and has at least one user. */
export function hasUsers(databasePath: string): boolean {
  if (!existsSync(databasePath) || statSync(databasePath).size === 0) return false;
  const db = new Database(databasePath, { readonly: true });
  try {
    return hasTable(db, "users") && !!db.query("SELECT 1 FROM users LIMIT 1").get();
  } finally {
    db.close();
  }
}

/** Refuses a file that is not a sound Zapdesk database. */
function checkDatabase(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const result = db.query("PRAGMA integrity_check").get() as { integrity_check: string } | null;
    if (result?.integrity_check !== "ok") throw new Error(`integrity check failed: ${result?.integrity_check}`);
    if (!hasTable(db, "users")) throw new Error("it is not a Zapdesk database");
    refuseNewerSqliteSchema(db);
  } finally {
    db.close();
  }
}

function mediaFiles(mediaDir: string): string[] {
  if (!existsSync(mediaDir)) return [];
  return readdirSync(mediaDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(mediaDir.length + 1))
    .sort();
}

function moveMedia(from: string, to: string) {
  if (!existsSync(from)) return;
  for (const name of mediaFiles(from)) {
    mkdirSync(dirname(join(to, name)), { recursive: true, mode: 0o700 });
    renameSync(join(from, name), join(to, name));
  }
}
