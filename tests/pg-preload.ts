/**
 * Preloaded by the suite's PostgreSQL run (`bun test --preload ./tests/pg-preload.ts`): the tables the code
 * queries are chosen from DATABASE_URL before any module loads, and the test apps are on a throwaway cluster
 * (tests/pg-harness.ts), whatever this URL names: every test gets the run's one reused database, emptied, and
 * its apps are stopped when it ends.
 */
import { afterEach } from "bun:test";

process.env.DATABASE_URL = "postgres://suite@localhost/zapdesk";
// Loaded once DATABASE_URL is set: an import above would run before it.
const { endTest } = await import("./helpers");
afterEach(endTest);
