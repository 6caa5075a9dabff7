/**
 * The reports at scale: GET /api/reports/summary over the last 30 days of a 100,000-ticket / 1,000,000-message
 * database (its history seeded with it, bench/seed.ts), as an admin for everyone, for one queue and for one agent,
 * and as that agent for their own line. Run within `npm run bench` and `bench:pg` on the queries' database.
 *
 * `bun bench/reports.ts [tickets] [messagesPerTicket]` seeds a throwaway database (PostgreSQL with DATABASE_URL)
 * and prints these figures alone.
 */
import type { Db } from "../src/db/client";
import { type Figure, quantile } from "./figure";
import type { BenchAuth } from "./figure";
import { cpuPerRequest, type RequestsCpu, sumCpu, timedRuns } from "./pg-cpu";

const ROUNDS = 20;
const WARMUP = 3;
const DAYS = 30;

/** `postgresDataDir`: the cluster's, when its processes are on this machine, to count PostgreSQL's CPU too. */
export async function measureReports(
  base: string,
  auth: BenchAuth,
  db: Db,
  now = Date.now(),
  postgresDataDir?: string,
): Promise<Figure[]> {
  const admin = { authorization: `Bearer ${auth.token}` };
  // Loaded here: the engine is chosen (DATABASE_URL) before the tables load, as bench/postgres.ts does.
  const { queues, users } = await import("../src/db/tables");
  const queueId = (await db.select({ id: queues.id }).from(queues).limit(1))[0]!.id;
  const agentId = (await db.select({ id: users.id }).from(users).limit(2)).at(-1)!.id;
  const span = `from=${new Date(now - DAYS * 24 * 3600_000).toISOString()}&to=${new Date(now).toISOString()}`;
  const samples: number[] = [];
  const cpu: RequestsCpu[] = [];
  console.log(`reports over ${DAYS} days, p50 / p95 / CPU ms:`);
  for (const query of [span, `${span}&queueIds=[${queueId}]`, `${span}&userIds=[${agentId}]`]) {
    const path = `/api/reports/summary?${query}`;
    const r = await measure(`${base}${path}`, admin, postgresDataDir);
    samples.push(...r.samples);
    cpu.push(r.cpu);
    console.log(
      `  ${r.p50.toFixed(2).padStart(7)} ${r.p95.toFixed(2).padStart(7)} ${(r.cpu.appUs / 1000 / ROUNDS).toFixed(2).padStart(6)}  ${path}`,
    );
  }
  const csv = await measure(`${base}/api/reports/summary.csv?${span}`, admin, postgresDataDir);
  samples.push(...csv.samples);
  cpu.push(csv.cpu);
  const p95 = quantile(samples, 0.95);
  return [
    {
      id: "M9",
      what: `reports summary p95 over ${DAYS} days (everyone, one queue, one agent, CSV; over HTTP, ${ROUNDS} requests each; ${cpuPerRequest(sumCpu(cpu), cpu.length * ROUNDS)})`,
      value: p95,
      unit: "ms",
      target: "p95 ≤ 200",
      met: p95 <= 200,
    },
  ];
}

async function measure(url: string, headers: Record<string, string>, postgresDataDir?: string) {
  const once = async () => {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const { samples, cpu } = await timedRuns(ROUNDS, once, postgresDataDir);
  return { samples: [...samples], p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), cpu };
}

if (import.meta.main) {
  // `DATABASE_URL=harness`: on the tests' throwaway PostgreSQL cluster, as `bench:pg` runs.
  if (process.env.DATABASE_URL === "harness")
    process.env.DATABASE_URL = (await import("../tests/pg-harness")).pgServer().url;
  const { startTempApp } = await import("./temp-app");
  const { seedLarge } = await import("./seed");
  const now = Date.now();
  const size = { tickets: Number(process.argv[2] ?? 100_000), messagesPerTicket: Number(process.argv[3] ?? 10) };
  const app = await startTempApp({ seed: (db) => seedLarge(db, { ...size, now }), sandbox: false });
  console.log(`seeded ${app.seeded.tickets} tickets in ${(app.seeded.ms / 1000).toFixed(1)} s`);
  try {
    const auth = { token: app.token, cookie: app.cookie };
    for (const f of await measureReports(app.base, auth, app.db, now, app.postgresDataDir))
      console.log(
        `${f.id} ${f.value.toFixed(2)} ${f.unit}  target ${f.target}  ${f.met ? "met" : "MISSED"}  ${f.what}`,
      );
  } finally {
    await app.close();
  }
  process.exit(0);
}
