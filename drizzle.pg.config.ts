import { defineConfig } from "drizzle-kit";

/**
 * The PostgreSQL schema's migrations, generated beside SQLite's (drizzle.config.ts) from src/db/pg-schema, which
 * scripts/pg-schema.ts writes from src/db/schema first (`npm run db:generate` runs all three).
 */
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/pg-schema/index.ts",
  out: "./db/migrations-pg",
});
