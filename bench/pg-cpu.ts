/**
 * CPU time of processes read from /proc (clock ticks of 10 ms), for the PostgreSQL benches, and the CPU measured
 * requests cost: this process's and, beside it, PostgreSQL's.
 */
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

/** PostgreSQL's processes count as idle below this much CPU in a second (a hundredth of a core). */
const IDLE_US_PER_SECOND = 10_000;

/**
 * Waits until the PostgreSQL server of `dataDir` has been idle for a second, at most `maxMs`, and answers how long
 * it waited: work what ran before left behind (autovacuum of a database just written, the checkpointer writing
 * the pages of a load) would otherwise take the cores of the next measure and count in its CPU.
 */
export async function postgresSettled(dataDir: string, maxMs = 60_000): Promise<number> {
  const started = performance.now();
  let before = postgresCpuMicros(dataDir);
  while (performance.now() - started < maxMs) {
    await Bun.sleep(1_000);
    const now = postgresCpuMicros(dataDir);
    if (now - before < IDLE_US_PER_SECOND) break;
    before = now;
  }
  return performance.now() - started;
}

/** CPU time the whole machine has spent busy so far, all cores together, in microseconds (/proc/stat's `cpu` line). */
export function machineBusyMicros(): number {
  const [user, nice, system, _idle, _iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_US;
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

/** CPU time spent while some measured requests ran, in microseconds. */
export interface RequestsCpu {
  /** This process's: the app and, as it runs here too, the client that sends the requests. */
  appUs: number;
  /** The PostgreSQL server's, when the app's database is on a server whose processes this machine shows. */
  postgresUs?: number;
}

/**
 * Runs `requests` and returns what it returned with the CPU time spent meanwhile. PostgreSQL's is read from /proc
 * around this process's, so reading it is not counted as the app's.
 */
export async function withCpu<T>(
  requests: () => Promise<T>,
  postgresDataDir?: string,
): Promise<{ result: T; cpu: RequestsCpu }> {
  const postgresBefore = postgresDataDir ? postgresCpuMicros(postgresDataDir) : 0;
  const before = process.cpuUsage();
  const result = await requests();
  const used = process.cpuUsage(before);
  const postgresUs = postgresDataDir ? postgresCpuMicros(postgresDataDir) - postgresBefore : undefined;
  return { result, cpu: { appUs: used.user + used.system, postgresUs } };
}

/** `rounds` runs of `once` one after the other (each returns its milliseconds), with the CPU they took. */
export async function timedRuns(
  rounds: number,
  once: () => Promise<number>,
  postgresDataDir?: string,
): Promise<{ samples: number[]; cpu: RequestsCpu }> {
  const { result: samples, cpu } = await withCpu(async () => {
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) samples.push(await once());
    return samples;
  }, postgresDataDir);
  return { samples, cpu };
}

/** The CPU of several runs of requests together. */
export function sumCpu(parts: RequestsCpu[]): RequestsCpu {
  const postgres = parts.map((p) => p.postgresUs).filter((us) => us !== undefined);
  return {
    appUs: parts.reduce((sum, p) => sum + p.appUs, 0),
    postgresUs: postgres.length ? postgres.reduce((sum, us) => sum + us, 0) : undefined,
  };
}

/** "1.20 ms CPU per request in the app, client included, PostgreSQL's 0.80 ms" for `cpu` spent on `requests`. */
export function cpuPerRequest(cpu: RequestsCpu, requests: number): string {
  const ms = (us: number) => (us / 1000 / requests).toFixed(2);
  const postgres = cpu.postgresUs === undefined ? "" : `, PostgreSQL's ${ms(cpu.postgresUs)} ms`;
  return `${ms(cpu.appUs)} ms CPU per request in the app, client included${postgres}`;
}
