import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Config } from "../config";
import { singleConnectionUrl } from "../db/postgres-url";

/**
 * A backup of a node that stores in PostgreSQL: the database is PostgreSQL's to copy, so `pg_dump` (custom
 * format, for `pg_restore`) writes it when it is installed. Without it, the error says what to run. The media
 * folder is not in it: it is copied beside it.
 */
export async function dumpPostgres(
  config: Pick<Config, "databaseUrl" | "mediaDir">,
  out: string,
  path: string | undefined,
): Promise<void> {
  const url = singleConnectionUrl(config.databaseUrl!);
  const pgDump = Bun.which("pg_dump", { PATH: path ?? "" });
  if (!pgDump)
    throw new Error(
      `this node stores in PostgreSQL and pg_dump is not installed: run pg_dump --format=custom --file=${out} '${withoutPassword(url)}' (with its password), and copy MEDIA_DIR (${config.mediaDir}) beside it`,
    );
  if (existsSync(out)) throw new Error(`${out} already exists`);
  mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
  const run = Bun.spawn([pgDump, "--format=custom", `--file=${out}.part`, `--dbname=${url}`], {
    stdout: "ignore",
    stderr: "pipe",
  });
  const [code, errors] = await Promise.all([run.exited, new Response(run.stderr).text()]);
  if (code !== 0) {
    rmSync(`${out}.part`, { force: true });
    throw new Error(`pg_dump failed: ${errors.trim().split("\n")[0]}`);
  }
  renameSync(`${out}.part`, out);
}

function withoutPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/i, "$1:…@");
}
