/**
 * Which test files run on both engines. A file whose behaviour depends on the engine (its queries, locks,
 * transactions or search differ between SQLite and PostgreSQL) starts with `// @engine each` and runs in the
 * suite's PostgreSQL run as well; `// @engine once` runs it on SQLite only (its behaviour is the same on both,
 * or it is about one engine itself, or it starts PostgreSQL servers of its own). Every file that opens a
 * database must say which (tests/architecture.test.ts).
 */
export type EngineMark = "each" | "once";

/** What opens a database in a test file, directly or through a helper. */
export const OPENS_A_DATABASE =
  /\b(makeTestApp|testDatabase|setupAdminAndAgent|ownDatabase|composeDeps|openStorage|openDatabase|freshPgUrl|emptyPgUrl|startPostgres|DB_URL|driverOnFake|testDriver|sqliteClient)\b/;

/**
 * `// @group processes`: the file runs servers as processes of their own and kills them (crash and cluster
 * tests); the suite runs these files on their own, after the others, in a test process of their own.
 */
export function runsProcesses(text: string): boolean {
  return /^\/\/ @group processes$/m.test(text);
}

export function engineMark(text: string): EngineMark | undefined {
  return /^\/\/ @engine (each|once)$/m.exec(text)?.[1] as EngineMark | undefined;
}
