/**
 * Preloaded by the suite's PostgreSQL run (`bun test --preload ./tests/pg-preload.ts`): the tables the code
 * queries are chosen from DATABASE_URL before any module loads, and every test app gets a database of its own
 * on a throwaway cluster (tests/pg-harness.ts), whatever this URL names.
 */
process.env.DATABASE_URL = "postgres://suite@localhost/zapdesk";
