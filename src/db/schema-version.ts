import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { version } from "../../package.json";
import { StartupError } from "../errors";

/** A migration as a folder's journal lists it: `when` is what drizzle records as the migration's `created_at`. */
export interface Migration {
  tag: string;
  when: number;
}

/** A Zapdesk version that ran on a database, with the newest migration it knew (the app_versions table). */
export interface AppVersion {
  version: string;
  schema: string;
}

/**
 * The newest version among those recorded, by semver rather than by when each recorded itself: two starts in
 * the same millisecond (or a clock set back) must not decide which build migrated the database.
 */
export function newestRecorded(rows: AppVersion[]): AppVersion | undefined {
  return rows.reduce<AppVersion | undefined>(
    (a, b) => (a && Bun.semver.order(a.version, b.version) >= 0 ? a : b),
    undefined,
  );
}

/** The migrations of a folder's journal, oldest first (none without a journal). */
export function journalOf(migrationsFolder: string): Migration[] {
  const journal = join(migrationsFolder, "meta", "_journal.json");
  if (!existsSync(journal)) return [];
  return (JSON.parse(readFileSync(journal, "utf8")) as { entries: Migration[] }).entries;
}

/** The newest migration of a folder, the schema version this build knows. */
export function newestMigration(migrationsFolder: string): Migration | undefined {
  return journalOf(migrationsFolder).reduce<Migration | undefined>(
    (a, b) => (a && a.when >= b.when ? a : b),
    undefined,
  );
}

/** This build, as recorded in app_versions: its version and the newest migration it knows. */
export function thisBuild(migrationsFolder: string): AppVersion {
  return { version, schema: newestMigration(migrationsFolder)?.tag ?? "none" };
}

/**
 * Refuses to run on a database that recorded a migration newer than any this build knows (a newer Zapdesk
 * migrated it): this build would misread or damage what that schema holds. `madeBy` is the newest version that
 * ran on it, when it recorded one.
 */
export function refuseNewerSchema(lastApplied: number, migrationsFolder: string, madeBy: AppVersion | undefined) {
  const newest = newestMigration(migrationsFolder);
  if (!newest || lastApplied <= newest.when) return;
  // A build of this same version that migrated further (a development build) is no version to run.
  const maker = madeBy && madeBy.version !== version ? madeBy : undefined;
  const other = maker ? `Zapdesk ${maker.version} (schema ${maker.schema})` : "a newer Zapdesk";
  throw new StartupError(
    `the database was migrated by ${other}, newer than this Zapdesk ${version} (schema ${newest.tag}): run ${maker ? `Zapdesk ${maker.version}` : "that version"} or newer, or restore a backup taken before that upgrade`,
  );
}
