/**
 * Writes src/db/pg-schema from src/db/schema, the one schema written by hand: each SQLite file becomes its
 * PostgreSQL twin (scripts/pg-schema-rules.ts), except columns.ts, which each dialect keeps by hand (it says how
 * that engine stores dates, flags and bytes). `npm run db:generate` runs this before drizzle-kit writes the
 * migrations of both engines; tests/pg-schema.test.ts fails when the files on disk are not what it writes.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIOME } from "./biome";
import { toPostgres } from "./pg-schema-rules";

const ROOT = join(import.meta.dir, "..");
export const SQLITE_SCHEMA_DIR = join(ROOT, "src/db/schema");
export const PG_SCHEMA_DIR = join(ROOT, "src/db/pg-schema");

/** Written by hand on both sides. */
export const DIALECT_FILES = ["columns.ts"];

const header = (file: string) =>
  `// Generated from src/db/schema/${file} by scripts/pg-schema.ts (npm run db:generate): do not edit by hand.\n`;

/** Every generated file of src/db/pg-schema, by file name, as it should read now. */
export function pgSchemaFiles(): Map<string, string> {
  const files = readdirSync(SQLITE_SCHEMA_DIR)
    .filter((file) => file.endsWith(".ts") && !DIALECT_FILES.includes(file))
    .sort();
  return new Map(files.map((file) => [file, generate(file)]));
}

function generate(file: string): string {
  const source = readFileSync(join(SQLITE_SCHEMA_DIR, file), "utf8");
  return formatted(header(file) + toPostgres(source, `src/db/schema/${file}`), join(PG_SCHEMA_DIR, file));
}

/**
 * The text as Biome formats it, so the files pass the lint however the rewrites changed line lengths. Where Biome
 * is not installed (see scripts/biome.ts) the text stays as the rules wrote it, imports laid out as Biome would.
 */
function formatted(text: string, path: string): string {
  if (!existsSync(BIOME)) return text;
  const run = Bun.spawnSync([BIOME, "format", `--stdin-file-path=${path}`], { cwd: ROOT, stdin: Buffer.from(text) });
  if (run.exitCode !== 0) throw new Error(`Biome could not format ${path}:\n${run.stderr.toString()}`);
  return run.stdout.toString();
}

if (import.meta.main) {
  const files = pgSchemaFiles();
  for (const [file, text] of files) {
    const path = join(PG_SCHEMA_DIR, file);
    if (!existsSync(path) || readFileSync(path, "utf8") !== text) {
      writeFileSync(path, text);
      console.log(`wrote src/db/pg-schema/${file}`);
    }
  }
  for (const file of readdirSync(PG_SCHEMA_DIR))
    if (!files.has(file) && readFileSync(join(PG_SCHEMA_DIR, file), "utf8").startsWith("// Generated from")) {
      rmSync(join(PG_SCHEMA_DIR, file));
      console.log(`removed src/db/pg-schema/${file}: src/db/schema has no such file`);
    }
}
