/**
 * The entry of the executable and of `npm start`'s bundle. The server starts with the JIT this many times more
 * reluctant, until its first work (see jit-policy.ts). Modules are loaded only once it is set, hence the dynamic
 * import. Commands (an import, a migration) run hot loops and keep the normal policy.
 */
import { reluctantJit } from "./jit-policy";

const STARTUP_JIT_RELUCTANCE = 100;

if (process.argv.length <= 2) reluctantJit(STARTUP_JIT_RELUCTANCE);
await import("./server");
