import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * What the server keeps under DATA_DIR (the database with password hashes and WhatsApp keys, the JWT secrets,
 * every media file) is readable by the server's own user only: files 0600, folders 0700. The process umask
 * (set in server.ts) covers files SQLite and libraries create; these helpers set the mode explicitly too.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates a folder (with its parents) that only the server's user may enter. */
export function makePrivateDir(path: string) {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(path, PRIVATE_DIR);
}

/** Writes a file only the server's user may read. */
export async function writePrivateFile(path: string, data: Uint8Array) {
  await writeFile(path, data, { mode: PRIVATE_FILE });
  chmodSync(path, PRIVATE_FILE);
}

/** Copies a file to a new one only the server's user may read. */
export function copyPrivateFile(from: string, to: string) {
  copyFileSync(from, to);
  chmodSync(to, PRIVATE_FILE);
}

/** Makes an existing file (when there is one) readable by the server's user only. */
export function restrictFile(path: string) {
  if (existsSync(path)) chmodSync(path, PRIVATE_FILE);
}

/** Makes a folder and everything in it private; symbolic links are left alone. */
export function restrictTree(dir: string) {
  if (!existsSync(dir)) return;
  chmodSync(dir, PRIVATE_DIR);
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = lstatSync(path);
    if (stat.isDirectory()) restrictTree(path);
    else if (stat.isFile()) chmodSync(path, PRIVATE_FILE);
  }
}

/** Tightens what an earlier version left readable by others: DATA_DIR, the database files, the secrets and the media. */
export function restrictDataDir(paths: { dataDir: string; databasePath: string; mediaDir: string }) {
  chmodSync(paths.dataDir, PRIVATE_DIR);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) restrictFile(paths.databasePath + suffix);
  restrictFile(join(paths.dataDir, "secrets.json"));
  restrictTree(paths.mediaDir);
}
