/**
 * The entry of the executable and of `npm start`'s bundle. A server's start-up code (module set-up, the tables'
 * schemas, the routes) runs once, yet is hot enough for the JIT's optimising tiers, whose code and compiler
 * pages then stay in an idle server's memory: the JIT is made this many times more reluctant until the server
 * is up (server.ts restores it). Modules are loaded only once it is set, hence the dynamic import. Commands (an
 * import, a migration) run hot loops and keep the normal policy.
 */
const STARTUP_JIT_RELUCTANCE = 100;

if (process.argv.length <= 2) Bun.unsafe.setJITPolicy(STARTUP_JIT_RELUCTANCE);
await import("./server");
export {};
