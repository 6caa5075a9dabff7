/** Every table, one file per domain; drizzle-kit and the client read them all from here. */
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
export * from "./ai";
