import { join } from "node:path";

/** True inside a `bun build --compile` binary, where assets live in the embedded /$bunfs filesystem. */
export const COMPILED = import.meta.dir.startsWith("/$bunfs");

const ROOT = COMPILED ? "/$bunfs/root" : join(import.meta.dir, "..");

export const MIGRATIONS_DIR = COMPILED ? join(ROOT, "migrations") : join(ROOT, "db", "migrations");
export const STATIC_DIR = COMPILED ? join(ROOT, "public") : join(ROOT, "dist", "public");
export const PROJECT_ROOT = ROOT;
