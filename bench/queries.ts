import { type Db, execute, first, sqliteClient } from "../src/db/client";
/**
 * The query side of `npm run bench` at scale: the ticket list over every filter combination (M3), search over
 * message bodies, contact names and numbers (M4, and whether /health still answers while searches run), the first
 * /tickets HTML (M8), and whaticket's query shapes run directly on the same SQLite file for comparison.
 *
 * `bun bench/queries.ts [tickets] [messagesPerTicket]` seeds a throwaway database, serves the app on a loopback
 * port and prints the figures. With `DATABASE_URL=postgres://…` (or `DATA_DIR=<dir>` for SQLite) it measures that
 * database instead, seeding it only when it holds no ticket yet, so one seeded database serves run after run
 * (seeding takes over a minute on PostgreSQL).
 */
import { desc, sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { contacts, messages, onPostgres, queues, tags, tickets } from "../src/db/tables";
import { type BenchAuth, type Figure, quantile } from "./figure";
import { cpuPerRequest, postgresSettled, type RequestsCpu, sumCpu, timedRuns, withCpu } from "./pg-cpu";
import { measureReports } from "./reports";

/** An admin's bearer token and session cookie on the served app. */
const ROUNDS = 20;
/**
 * Requests per list combination: its p95 is the 39th of 40 samples. Of 20 it was the slowest (`quantile` takes the
 * sample at 95 % of the sorted count), so the worst combination's figure was the run's one slowest request.
 */
const LIST_ROUNDS = 40;
const WARMUP = 2;
const PAGE_ROUNDS = 200;
const PAGE_WARMUP = 20;

/** Search terms agents type: an accent-less name, a prefix, a common and a rare word, a surname, a number's digits. */
const SEARCH_TERMS = [
  "joao",
  "conceicao",
  "entreg",
  "obrigado",
  "reembolso",
  "munoz",
  "#100342",
  "9100",
  "sebastian gomez",
];

/** `postgresDataDir`: the cluster's, when its processes are on this machine, to count PostgreSQL's CPU too. */
export async function measureQueries(
  base: string,
  auth: BenchAuth,
  db: Db,
  postgresDataDir?: string,
): Promise<Figure[]> {
  const admin = { authorization: `Bearer ${auth.token}` };
  const agent = { authorization: `Bearer ${await agentToken(base, admin, db)}` };
  const queueIds = (await db.select({ id: queues.id }).from(queues)).map((q) => q.id);
  const tagIds = (await db.select({ id: tags.id }).from(tags)).map((t) => t.id);
  const newest = (
    await first(db.select({ at: tickets.updatedAt }).from(tickets).orderBy(desc(tickets.updatedAt)).limit(1))
  )?.at;
  const day = (newest ?? new Date()).toISOString().slice(0, 10);

  // Redirects are not followed: a refused session must fail the run, not time the login page.
  const get = (path: string, headers: Record<string, string>) =>
    timed(() => fetch(`${base}${path}`, { headers, redirect: "manual" }));
  // This process's CPU per request besides the wall time: on a busy machine the wall time is mostly waiting for a
  // core, while the CPU shows what the request itself costs (server and client, when they share the process).
  const measure = async (path: string, headers: Record<string, string>, rounds = ROUNDS, warmup = WARMUP) => {
    for (let i = 0; i < warmup; i++) await get(path, headers);
    const { samples, cpu } = await timedRuns(rounds, () => get(path, headers), postgresDataDir);
    const cpuMs = cpu.appUs / 1000 / rounds;
    return { samples: [...samples], p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), cpu, cpuMs };
  };
  const line = (r: { p50: number; p95: number; cpuMs: number }, label: string) =>
    console.log(
      `  ${r.p50.toFixed(2).padStart(7)} ${r.p95.toFixed(2).padStart(7)} ${r.cpuMs.toFixed(2).padStart(6)}  ${label}`,
    );

  const list = [];
  for (const [who, headers] of [
    ["admin", admin],
    ["agent", agent],
  ] as const)
    for (const path of listPaths(queueIds, tagIds, day))
      list.push({ who, path, ...(await measure(path, headers, LIST_ROUNDS)) });
  const worstList = list.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  const slowestList = Math.max(...list.flatMap((r) => r.samples));
  console.log("ticket list, p50 / p95 / CPU ms per filter combination:");
  for (const r of list) line(r, `${r.who.padEnd(5)} ${r.path}`);

  const searchSamples: number[] = [];
  const searchCpu: RequestsCpu[] = [];
  const ticketId = (await first(db.select({ id: tickets.id }).from(tickets).orderBy(tickets.id).limit(1)))?.id ?? 1;
  console.log("search, p50 / p95 / CPU ms per term (tickets tab as admin and agent, then inside a conversation):");
  for (const term of SEARCH_TERMS) {
    const q = encodeURIComponent(term);
    for (const [path, headers] of [
      [`/api/tickets?showAll=true&searchParam=${q}`, admin],
      [`/api/tickets?searchParam=${q}`, agent],
      [`/api/messages/${ticketId}/search?q=${q}`, admin],
    ] as const) {
      const r = await measure(path, headers);
      searchSamples.push(...r.samples);
      searchCpu.push(r.cpu);
      line(r, path);
    }
  }
  const { result: paged, cpu: pagedCpu } = await withCpu(
    () => searchPagedToTheEnd(base, admin, COMMON_WORD),
    postgresDataDir,
  );
  console.log(
    `search "${COMMON_WORD}" paged to the end: ${paged.pages} pages, ${paged.tickets} tickets (${paged.repeated} repeated), page p50 ${quantile(paged.samples, 0.5).toFixed(2)} / p95 ${quantile(paged.samples, 0.95).toFixed(2)} ms`,
  );
  const health = await healthWhileSearching(base, admin);
  // The page's renderer is first used here (the list requests above never render): it is warmed like a server
  // that has served a few pages, then measured over more requests than the API calls.
  const firstPage = await measure("/tickets", { cookie: auth.cookie }, PAGE_ROUNDS, PAGE_WARMUP);
  console.log(
    `CPU per request, worst: list ${Math.max(...list.map((r) => r.cpuMs)).toFixed(2)} ms, search ${(Math.max(...searchCpu.map((c) => c.appUs)) / 1000 / ROUNDS).toFixed(2)} ms, first /tickets ${firstPage.cpuMs.toFixed(2)} ms`,
  );

  // whaticket's shapes are timed on the SQLite file directly; on PostgreSQL the figures stand alone.
  const theirList = onPostgres ? undefined : whaticketList(db);
  const theirSearch = onPostgres ? undefined : whaticketSearch(db);
  return [
    {
      id: "M3",
      what: `ticket list p95, worst filter combination (over HTTP, ${LIST_ROUNDS} requests each; ${cpuPerRequest(sumCpu(list.map((r) => r.cpu)), list.length * LIST_ROUNDS)}; the worst combination's app CPU ${worstList.cpuMs.toFixed(2)} ms; slowest request of all ${slowestList.toFixed(1)} ms)`,
      value: worstList.p95,
      unit: "ms",
      target: "p95 ≤ 10",
      met: worstList.p95 <= 10,
      baseline:
        theirList === undefined
          ? undefined
          : {
              what: "whaticket shape: OFFSET page + count(*) with joins, closed tab (SQLite, no HTTP)",
              value: theirList,
            },
    },
    {
      id: "M4",
      what: `search p95 over ${SEARCH_TERMS.length} terms, tickets tab and conversation (over HTTP, ${ROUNDS} requests each; ${cpuPerRequest(sumCpu(searchCpu), searchCpu.length * ROUNDS)})`,
      value: quantile(searchSamples, 0.95),
      unit: "ms",
      target: "p95 ≤ 50",
      met: quantile(searchSamples, 0.95) <= 50,
      baseline:
        theirSearch === undefined
          ? undefined
          : {
              what: "whaticket shape: LIKE '%x%' over bodies and names joined per ticket (SQLite, no HTTP)",
              value: theirSearch,
            },
    },
    {
      id: "P6",
      what: `search for a common word ("${COMMON_WORD}") paged to the end, page p95 (${paged.pages} pages, ${paged.tickets} tickets, ${paged.repeated} repeated; over HTTP; ${cpuPerRequest(pagedCpu, paged.pages)})`,
      value: quantile(paged.samples, 0.95),
      unit: "ms",
      target: "p95 ≤ 50, every match",
      met: quantile(paged.samples, 0.95) <= 50 && paged.repeated === 0,
    },
    {
      id: "M4-health",
      what: "/health p95 while 4 searches run back to back",
      value: health,
      unit: "ms",
      target: "answers quickly",
    },
    {
      id: "M8",
      what: `first /tickets HTML p50 (${PAGE_ROUNDS} requests after ${PAGE_WARMUP} to warm up; ${cpuPerRequest(firstPage.cpu, PAGE_ROUNDS)})`,
      value: firstPage.p50,
      unit: "ms",
      target: "p50 ≤ 5",
      met: firstPage.p50 <= 5,
    },
  ];
}

/** Every list the service can build: each status (and none), show-all on and off, with each extra filter alone. */
function listPaths(queueIds: number[], tagIds: number[], day: string): string[] {
  const extras = [
    "",
    `&queueIds=${JSON.stringify(queueIds.slice(0, 1))}`,
    `&queueIds=${JSON.stringify(queueIds)}`,
    `&tags=${JSON.stringify(tagIds.slice(0, 1))}`,
    `&tags=${JSON.stringify(tagIds.slice(0, 2))}`,
    "&withUnreadMessages=true",
    `&date=${day}`,
    `&updatedAt=${day}`,
    "&pageNumber=2",
    "&pageNumber=40",
  ];
  const paths: string[] = [];
  for (const status of ["open", "pending", "closed", ""])
    for (const showAll of ["true", "false"])
      for (const extra of extras)
        paths.push(`/api/tickets?showAll=${showAll}${status ? `&status=${status}` : ""}${extra}`);
  return paths;
}

/** Milliseconds until the whole answer of `request` has arrived; throws on an error status. */
async function timed(request: () => Promise<Response>): Promise<number> {
  const start = performance.now();
  const res = await request();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${res.url}: HTTP ${res.status}`);
  return performance.now() - start;
}

/** An agent in the first two queues, created through the API, and their token. */
async function agentToken(base: string, admin: Record<string, string>, db: Db): Promise<string> {
  const queueIds = (await db.select({ id: queues.id }).from(queues).limit(2)).map((q) => q.id);
  const email = `bench-agent-${Date.now()}@example.com`;
  const password = "bench-agent-password";
  const created = await fetch(`${base}/api/users`, {
    method: "POST",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench Agent", email, password, profile: "user", queueIds }),
  });
  if (!created.ok) throw new Error(`creating the bench agent: HTTP ${created.status} ${await created.text()}`);
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return ((await login.json()) as { token: string }).token;
}

/** A word in about a fifth of the seeded tickets (bench/seed.ts's phrases). */
const COMMON_WORD = "obrigado";

/**
 * The tickets tab's search for `term` as an admin, each page continuing where the one before says, as the list's
 * "load more" does, until no more follow: how long each page took, how many pages and tickets it
 * gave, and how many tickets came twice.
 */
async function searchPagedToTheEnd(base: string, admin: Record<string, string>, term: string) {
  const samples: number[] = [];
  const seen = new Set<number>();
  let repeated = 0;
  let after = "";
  for (;;) {
    const start = performance.now();
    const res = await fetch(`${base}/api/tickets?showAll=true&searchParam=${encodeURIComponent(term)}${after}`, {
      headers: admin,
    });
    const page = (await res.json()) as {
      tickets: { id: number }[];
      hasMore: boolean;
      next?: { beforeUpdatedAt: number; beforeId: number };
    };
    samples.push(performance.now() - start);
    if (!res.ok) throw new Error(`search page: HTTP ${res.status}`);
    for (const t of page.tickets) if (seen.has(t.id)) repeated++;
    for (const t of page.tickets) seen.add(t.id);
    if (!page.hasMore || !page.next) break;
    after = `&beforeUpdatedAt=${page.next.beforeUpdatedAt}&beforeId=${page.next.beforeId}`;
  }
  return { samples, pages: samples.length, tickets: seen.size, repeated };
}

/** /health p95 while four clients search back to back: whether a search holds the server up for others. */
async function healthWhileSearching(base: string, admin: Record<string, string>): Promise<number> {
  let searching = true;
  const searcher = async (n: number) => {
    for (let i = n; searching; i++) {
      const term = SEARCH_TERMS[i % SEARCH_TERMS.length]!;
      await timed(() =>
        fetch(`${base}/api/tickets?showAll=true&searchParam=${encodeURIComponent(term)}`, { headers: admin }),
      );
    }
  };
  const searchers = [0, 1, 2, 3].map(searcher);
  const samples: number[] = [];
  for (let i = 0; i < 100; i++) samples.push(await timed(() => fetch(`${base}/health`)));
  searching = false;
  await Promise.all(searchers);
  return quantile(samples, 0.95);
}

const name = (table: Parameters<typeof getTableConfig>[0]) => getTableConfig(table).name;

/**
 * whaticket's ticket list on this data (p95 ms): the closed tab's page at an OFFSET with every relation joined,
 * plus a full count(*) through the same joins.
 */
function whaticketList(db: Db): number {
  const page = sqliteClient(db).prepare(
    `SELECT t.*, c.name, c.number FROM ${name(tickets)} t JOIN ${name(contacts)} c ON c.id = t.contact_id
     LEFT JOIN queues q ON q.id = t.queue_id LEFT JOIN users u ON u.id = t.user_id
     WHERE t.status = 'closed' ORDER BY t.updated_at DESC LIMIT 40 OFFSET ?`,
  );
  const count = sqliteClient(db).prepare(
    `SELECT count(DISTINCT t.id) AS n FROM ${name(tickets)} t JOIN ${name(contacts)} c ON c.id = t.contact_id
     LEFT JOIN queues q ON q.id = t.queue_id LEFT JOIN users u ON u.id = t.user_id WHERE t.status = 'closed'`,
  );
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    page.all(40 * i);
    count.get();
    samples.push(performance.now() - start);
  }
  return quantile(samples, 0.95);
}

/** whaticket's search on this data (p95 ms over three terms): LIKE '%x%' on names, numbers and bodies, per ticket. */
function whaticketSearch(db: Db): number {
  const where = `lower(c.name) LIKE ?1 OR c.number LIKE ?1 OR EXISTS (SELECT 1 FROM ${name(messages)} m
     WHERE m.ticket_id = t.id AND lower(m.body) LIKE ?1)`;
  const from = `FROM ${name(tickets)} t JOIN ${name(contacts)} c ON c.id = t.contact_id`;
  const page = sqliteClient(db).prepare(`SELECT t.* ${from} WHERE ${where} ORDER BY t.updated_at DESC LIMIT 40`);
  const count = sqliteClient(db).prepare(`SELECT count(*) AS n ${from} WHERE ${where}`);
  const samples: number[] = [];
  for (const term of ["joão", "reembolso", "#100342"]) {
    const start = performance.now();
    page.all(`%${term}%`);
    count.get(`%${term}%`);
    samples.push(performance.now() - start);
  }
  return quantile(samples, 0.95);
}

/** Seeds a throwaway database of `size`, serves it on a loopback port and measures it (see measureQueries). */
export async function measureQueriesAtScale(
  size: { tickets: number; messagesPerTicket: number } = { tickets: 100_000, messagesPerTicket: 10 },
  kept: { databaseUrl?: string; dataDir?: string } = {},
): Promise<Figure[]> {
  const { startTempApp } = await import("./temp-app");
  const { seedLarge } = await import("./seed");
  const seedUnlessSeeded = async (db: Db) =>
    (await first(db.select({ id: tickets.id }).from(tickets).limit(1))) ? undefined : seedLarge(db, size);
  const app = await startTempApp({ seed: seedUnlessSeeded, sandbox: false, ...kept });
  if (app.postgresDataDir) {
    // The load's pages written now, and whatever autovacuum still does with it done, before anything is timed.
    await execute(app.db, sql`checkpoint`);
    console.error(
      `PostgreSQL idle ${((await postgresSettled(app.postgresDataDir)) / 1000).toFixed(0)} s after the load`,
    );
  }
  const seedFigures: Figure[] = app.seeded
    ? [
        {
          id: "seed",
          what: `seed ${app.seeded.tickets} tickets / ${app.seeded.messages} messages through the schema`,
          value: app.seeded.ms / 1000,
          unit: "s",
          target: "< 60",
          met: app.seeded.ms < 60_000,
        },
      ]
    : [];
  try {
    const auth = { token: app.token, cookie: app.cookie };
    return [
      ...seedFigures,
      ...(await measureQueries(app.base, auth, app.db, app.postgresDataDir)),
      ...(await measureReports(app.base, auth, app.db, Date.now(), app.postgresDataDir)),
    ];
  } finally {
    await app.close();
  }
}

if (import.meta.main) {
  const figures = await measureQueriesAtScale(
    { tickets: Number(process.argv[2] ?? 100_000), messagesPerTicket: Number(process.argv[3] ?? 10) },
    {
      databaseUrl: process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined,
      dataDir: process.env.DATA_DIR,
    },
  );
  for (const f of figures) {
    const against = f.baseline ? `   (${f.baseline.what}: ${f.baseline.value.toFixed(1)} ${f.unit})` : "";
    console.log(
      `${f.id.padEnd(10)} ${f.value.toFixed(2).padStart(9)} ${f.unit}  target ${f.target}  ${f.met === false ? "MISSED" : ""}${against}  ${f.what}`,
    );
  }
  process.exit(0);
}
