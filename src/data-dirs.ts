import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { StartupError } from "./errors";
import { PRIVATE_DIR } from "./private-files";

/**
 * Creates DATA_DIR or MEDIA_DIR (`name`) private to the server's user when missing, and makes an existing one
 * private. One this user cannot create or does not own (a volume or folder made by root, say) stops the start
 * with one line naming the directory, its owner and the server's uid.
 */
export function prepareDataDir(path: string, name: string) {
  try {
    mkdirSync(path, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    if (!isDenied(error)) throw error;
    const uid = process.getuid?.();
    throw new StartupError(
      `cannot create ${name} ${path}: ${describeOwner(nearestExisting(path))}; create it for uid ${uid} (mkdir -p ${path} && chown ${uid} ${path}) or set ${name} elsewhere`,
    );
  }
  try {
    chmodSync(path, PRIVATE_DIR);
    accessSync(path, constants.W_OK | constants.X_OK);
  } catch (error) {
    if (!isDenied(error)) throw error;
    throw new StartupError(`${name} ${path} is not the server's to write: ${describeOwner(path)}; ${giveIt(path)}`);
  }
}

/**
 * Refuses a command that writes into DATA_DIR as another user than the one owning it (root, say): the files it
 * left would be that user's, and the server could not open them.
 */
export function refuseOtherUsersDir(path: string, name: string) {
  if (!existsSync(path) || statSync(path).uid === process.getuid?.()) return;
  throw new Error(`${name} ${path} is another user's: ${describeOwner(path)}; run the command as its owner`);
}

function describeOwner(path: string): string {
  const stat = statSync(path);
  const uid = process.getuid?.();
  const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
  const owner = userName(stat.uid);
  return `${path} belongs to ${owner ? `${owner} (uid ${stat.uid}, ` : `uid ${stat.uid} (`}mode ${mode}) and this server runs as uid ${uid}`;
}

function giveIt(path: string): string {
  const uid = process.getuid?.();
  return `give it to uid ${uid} (chown -R ${uid} ${path}) or run the server as its owner`;
}

function isDenied(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM";
}

function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** The user's name from /etc/passwd (what `ls -l` shows), when it has one there. */
function userName(uid: number): string | undefined {
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.split(":")[2] === String(uid));
    if (line) return line.split(":")[0]!;
  } catch {}
  return undefined;
}

/**
 * The one line a start that failed on its files ends with: a StartupError's message, or, for a file or folder
 * the server's user may not use (left by a command run as root, say), whose it is. Undefined for anything else.
 */
export function startupFailure(error: unknown): string | undefined {
  if (error instanceof StartupError) return `zapdesk: ${error.message}`;
  const path = (error as NodeJS.ErrnoException).path;
  if (isDenied(error) && path && existsSync(path))
    return `zapdesk: cannot use ${path}: ${describeOwner(path)}; ${giveIt(path)}`;
  return undefined;
}
