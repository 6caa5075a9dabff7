import { useEngine } from "../src/db/tables";

/**
 * The engine this test run stores in: PostgreSQL when the suite's PostgreSQL run sets `TEST_ENGINE=postgres`
 * (scripts/test.ts; each test app then gets a database of its own on a throwaway cluster, tests/pg-harness.ts),
 * SQLite otherwise. Chosen here, as the server's composition chooses it, before any test builds a query.
 */
export const testsOnPostgres = process.env.TEST_ENGINE === "postgres";

useEngine(testsOnPostgres ? "postgres" : "sqlite");
