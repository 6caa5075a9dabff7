import { join } from "node:path";

/** True inside a `bun build --compile` binary, where assets live in the embedded /$bunfs filesystem. */
export const COMPILED = import.meta.dir.startsWith("/$bunfs");

/** True in the server bundle `npm start` runs (dist/server/, built by `npm run build:server`). */
const BUNDLED = !COMPILED && import.meta.dir.endsWith(join("dist", "server"));

const ROOT = COMPILED ? "/$bunfs/root" : join(import.meta.dir, "..", ...(BUNDLED ? [".."] : []));

export const MIGRATIONS_DIR = COMPILED ? join(ROOT, "migrations") : join(ROOT, "db", "migrations");
/** The PostgreSQL schema's migrations (drizzle.pg.config.ts), embedded in the binary beside SQLite's. */
export const PG_MIGRATIONS_DIR = COMPILED ? join(ROOT, "migrations-pg") : join(ROOT, "db", "migrations-pg");
export const STATIC_DIR = COMPILED ? join(ROOT, "public") : join(ROOT, "dist", "public");
export const PROJECT_ROOT = ROOT;
