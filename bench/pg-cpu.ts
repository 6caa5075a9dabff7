/** CPU time of processes read from /proc (clock ticks of 10 ms), for the PostgreSQL benches. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const TICK_US = 10_000;

/** The fields of /proc/`pid`/stat after the command's closing parenthesis (field 3 of the line is the first). */
function statFields(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return undefined;
  }
}

/** User and system CPU time of process `pid` so far, in microseconds (fields 14 and 15 of its stat line). */
export function processCpuMicros(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * TICK_US : 0;
}

/**
 * CPU time of the PostgreSQL server whose data directory is `dataDir`, in microseconds: its postmaster, the
 * backends running now, and those that ended (counted in the postmaster's children's time).
 */
export function postgresCpuMicros(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const own = statFields(postmaster);
  let ticks = own ? Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]) : 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * TICK_US;
}
