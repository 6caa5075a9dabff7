/**
 * Preloaded by every `bun test` run (bunfig.toml): the run's engine is chosen before any test file loads
 * (tests/test-engine.ts), and in the PostgreSQL run each test's apps are stopped when it ends, so the next test
 * gets the run's one database emptied (tests/pg-harness.ts).
 */
import { afterEach } from "bun:test";
import { endTest } from "./helpers";
import { testsOnPostgres } from "./test-engine";

if (testsOnPostgres) afterEach(endTest);
