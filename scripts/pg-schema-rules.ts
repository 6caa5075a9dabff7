/**
 * How one file of src/db/schema (SQLite) reads in PostgreSQL: a few rewrites of SQLite spellings, the imports
 * renamed to drizzle-orm/pg-core, and a check that nothing SQLite-only is left. Whatever the rules do not know
 * stops the translation with the file and line, so a new SQLite spelling gets a rule instead of slipping through.
 */

/** The SQLite spellings that change, in order; what they become reads the same JavaScript values on PostgreSQL. */
const REWRITES: [RegExp, string][] = [
  [/\bsqliteTable\(/g, "pgTable("],
  [/\bAnySQLiteColumn\b/g, "AnyPgColumn"],
  // SQLite numbers an integer primary key by itself; PostgreSQL needs an identity, by default so that rows copied
  // in with their ids keep them.
  [/\.primaryKey\(\{ autoIncrement: true \}\)/g, ".primaryKey().generatedByDefaultAsIdentity()"],
  [/\binteger\(("\w+"), \{ mode: "timestamp_ms" \}\)/g, "date($1)"],
  [/\bblob\(("\w+"), \{ mode: "buffer" \}\)/g, "bytes($1)"],
  // PostgreSQL's integer holds 32 bits; SQLite's all hold 64, so the source marks the columns that need them.
  [/\bint64\(("\w+")\)/g, 'bigint($1, { mode: "number" })'],
];

/** What is left of SQLite after the rewrites: in code (comments aside), any of these is a spelling with no rule. */
const SQLITE_ONLY = /sqlite|autoIncrement|\bblob\(|\bint64\(|\bmode: "(?!number")|unixepoch|strftime|julianday/i;

/** The drizzle-orm/sqlite-core names the schema may import, and what drizzle-orm/pg-core calls each. */
const CORE_NAMES: Record<string, string> = {
  sqliteTable: "pgTable",
  AnySQLiteColumn: "AnyPgColumn",
  blob: "blob", // read only as bytes, which a rewrite above turns it into, so it leaves the import
  integer: "integer",
  text: "text",
  index: "index",
  uniqueIndex: "uniqueIndex",
  primaryKey: "primaryKey",
  foreignKey: "foreignKey",
  unique: "unique",
  check: "check",
};

/** Names the rewrites bring in, imported where they are used. */
const INTRODUCED: Record<string, string[]> = { "drizzle-orm/pg-core": ["bigint"], "./columns": ["bytes", "date"] };

const IMPORT = /^import \{([^}]*)\} from "([^"]+)";$/gm;
const SLOT = "\u0000import\u0000";
const LINE_WIDTH = 120;

/** The PostgreSQL twin of one SQLite schema file (`file` names it in errors). */
export function toPostgres(source: string, file: string): string {
  const statements = [...source.matchAll(IMPORT)];
  const body = REWRITES.reduce((text, [from, to]) => text.replace(from, to), source.replace(IMPORT, SLOT));
  const code = codeOnly(body);
  const output = statements.reduce((text, [, names, from]) => {
    const statement = importFor(names!, from!, code, file);
    return statement ? text.replace(SLOT, () => statement) : text.replace(`${SLOT}\n`, "");
  }, body);
  refuseSqliteLeftovers(output, file);
  return output;
}

/**
 * One import statement as PostgreSQL needs it: renamed, without what the code no longer uses and with what the
 * rewrites brought in; none when nothing it named is used any more.
 */
function importFor(list: string, from: string, code: string, file: string): string | undefined {
  const pgFrom = from === "drizzle-orm/sqlite-core" ? "drizzle-orm/pg-core" : from;
  const named = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => (from === pgFrom ? name : pgName(name, file)));
  const kept = named.filter((name) => uses(code, name.replace(/^type /, "")));
  const added = (INTRODUCED[pgFrom] ?? []).filter((name) => !kept.includes(name) && uses(code, name));
  const names = added.reduce(insertSorted, kept);
  return names.length > 0 ? importLine(names, pgFrom) : undefined;
}

function pgName(name: string, file: string): string {
  const [, type = "", bare = ""] = /^(type )?(\w+)$/.exec(name) ?? [];
  const pg = CORE_NAMES[bare];
  if (!pg) throw new Error(`${file}: no PostgreSQL rule for \`${name}\` from drizzle-orm/sqlite-core`);
  return type + pg;
}

/** Whether the code names `name` as a value or type (not as a property, an object key or inside a string). */
function uses(code: string, name: string): boolean {
  return new RegExp(`(?<![\\w.$])${name}\\b(?!\\s*:)`).test(code);
}

/** Before the first name that sorts after it, as the schema files order their imports. */
function insertSorted(names: string[], name: string): string[] {
  const at = names.findIndex((other) => other.replace(/^type /, "").localeCompare(name) > 0);
  return at < 0 ? [...names, name] : [...names.slice(0, at), name, ...names.slice(at)];
}

function importLine(names: string[], from: string): string {
  const line = `import { ${names.join(", ")} } from "${from}";`;
  if (line.length <= LINE_WIDTH) return line;
  return `import {\n${names.map((name) => `  ${name},\n`).join("")}} from "${from}";`;
}

function refuseSqliteLeftovers(output: string, file: string): void {
  const lines = withoutComments(output).split("\n");
  const at = lines.findIndex((line) => SQLITE_ONLY.test(line));
  if (at >= 0) throw new Error(`${file}:${at + 1}: no PostgreSQL rule for this SQLite spelling: ${lines[at]!.trim()}`);
}

/** The text with comments blanked, line breaks kept. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/^\s*\/\/.*$/gm, blank);
}

/** The text with comments and the insides of strings blanked, line breaks kept. */
function codeOnly(text: string): string {
  return withoutComments(text).replace(/"(?:[^"\\\n]|\\.)*"/g, (s) => `"${blank(s.slice(1, -1))}"`);
}

function blank(part: string): string {
  return part.replace(/[^\n]/g, " ");
}
