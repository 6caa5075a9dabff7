/**
 * Builds the single binary dist/zapdesk: the browser assets (scripts/build.ts), then the server with what it
 * reads at run time embedded: dist/public and each engine's migrations. Of the migrations only the SQL files and
 * the journal go in; drizzle-kit's schema snapshots (meta/*_snapshot.json, 6 MB) serve only to generate the next
 * migration.
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const staged = join(root, "dist", "embed");

run([process.execPath, "scripts/build.ts"]);
rmSync(staged, { recursive: true, force: true });
for (const name of ["migrations", "migrations-pg"]) stageMigrations(join(root, "db", name), join(staged, name));
run([
  process.execPath,
  "build",
  "--compile",
  "--splitting",
  "--minify-whitespace",
  "--minify-syntax",
  "--define",
  'process.env.NODE_ENV="production"',
  "src/start.ts",
  "--asset",
  "dist/public",
  "--asset",
  join(staged, "migrations"),
  "--asset",
  join(staged, "migrations-pg"),
  "--outfile",
  "dist/zapdesk",
]);

function stageMigrations(from: string, to: string) {
  mkdirSync(join(to, "meta"), { recursive: true });
  for (const file of readdirSync(from).filter((f) => f.endsWith(".sql"))) cpSync(join(from, file), join(to, file));
  cpSync(join(from, "meta", "_journal.json"), join(to, "meta", "_journal.json"));
}

function run(command: string[]) {
  const { exitCode } = Bun.spawnSync(command, { cwd: root, stdio: ["inherit", "inherit", "inherit"] });
  if (exitCode !== 0) process.exit(exitCode ?? 1);
}
