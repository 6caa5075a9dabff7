/**
 * How eagerly the JIT compiles. A server's start-up code (module set-up, the tables' schemas, the routes) runs
 * once, yet is hot enough for the JIT's optimising tiers, whose code and compiler pages would stay in an idle
 * server's memory; so start.ts makes the JIT reluctant, and the normal policy comes back with the server's
 * first work (server.ts). An idle server stays reluctant: its only code is the job runner's look every second,
 * which the normal policy would bring to the optimising tier within about 15 s, whose first compilation alone
 * maps about 2.3 MiB.
 */
let reluctant = false;

/** The JIT is `scale` times more reluctant to compile until `normalJit`. */
export function reluctantJit(scale: number) {
  Bun.unsafe.setJITPolicy(scale);
  reluctant = true;
}

/** Work has come: the JIT tiers code up as usual (work at the reluctant policy costs 10–15 % more CPU). */
export function normalJit() {
  if (!reluctant) return;
  reluctant = false;
  Bun.unsafe.setJITPolicy(1);
}

/** Whether the JIT is still reluctant (a request may then have to tell whether it is work). */
export const jitReluctant = () => reluctant;
