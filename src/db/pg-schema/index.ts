/**
 * The PostgreSQL twin of ../schema: the same tables, SQL names, keys, indexes and exported names, one file per
 * domain as there (a test keeps the two in step). drizzle.pg.config.ts generates db/migrations-pg from here.
 */
export * from "./connections";
export * from "./users";
export * from "./queues";
export * from "./contacts";
export * from "./tickets";
export * from "./messages";
export * from "./bulk";
export * from "./channel-state";
export * from "./system";
export * from "./webhooks";
