import { test } from "bun:test";
import { closeDatabase, type Db, first, one } from "../src/db/client";
import { openStorage } from "../src/ops/storage";
import { createApp, type App } from "../src/app";
import type { ConnectionManager } from "../src/channels/manager";
import type { SandboxDriver } from "../src/channels/sandbox/driver";
import type { Config } from "../src/config";
import type { HostResolver } from "../src/http/host-resolver";
import { composeDeps } from "../src/compose";
import { testsOnPostgres } from "./test-engine";
import { testEnded, testPgUrl } from "./pg-harness";
import { stopServer } from "../src/shutdown";
import type { AppDeps } from "../src/deps";
import type { Clock } from "../src/shared/clock";
import { createLogger } from "../src/log";
import { hashPassword } from "../src/modules/auth/passwords";
import { insertUser } from "../src/modules/users/service";
import { type RealtimeHub, RecordingHub } from "../src/realtime/hub";
import { connectionQueues, connections, type ConnectionRow, queues } from "../src/db/tables";
import { eq } from "drizzle-orm";
import type { Role } from "../src/shared/permissions";
import { LOOPBACK } from "../src/shared/ip-ranges";

export const BASE = "http://localhost";

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    dataDir: "/tmp/zapdesk-test",
    databasePath: ":memory:",
    mediaDir: "/tmp/zapdesk-test/media",
    adminEmail: "admin@example.com",
    adminPassword: "admin-password",
    jwtSecret: "test-access-secret-0123456789abcdef",
    jwtRefreshSecret: "test-refresh-secret-0123456789abcdef",
    logLevel: "silent",
    passwordHashing: { algorithm: "argon2id", memoryCost: 8, timeCost: 1 },
    accessTokenTtl: 900,
    refreshTokenTtl: 7 * 24 * 3600,
    // A proxy on this host, like TRUST_PROXY=true: tests name a client with X-Forwarded-For (see `fromPeer`).
    trustProxy: LOOPBACK,
    secureCookies: false,
    sandbox: true,
    timeZone: "UTC",
    autoCloseHours: 0,
    logFormat: "text",
    backupEveryHours: 0,
    backupKeep: 7,
    maxMediaMb: 64,
    corsOrigins: [],
    webhookAllowPrivate: false,
    // Nothing listens there: a test of cloud connections points it at its fake Graph API.
    cloudApiUrl: "http://127.0.0.1:9",
    cloudApiVersion: "v21.0",
    // Off: a test's clock stands still, so a rate would never refill; the limiter's tests set their own.
    apiUserLimits: { inFlight: 0, perSecond: 0, burst: 0 },
    ...overrides,
  };
}

/** A clock tests can move. */
export class TestClock implements Clock {
  constructor(public t = Date.now()) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
}

/**
 * DNS without a network: `names` resolve to their addresses, any other name to none; `own` are this machine's
 * addresses. A test may change `names` while it runs (a name that answers differently later).
 */
export function fakeResolver(names: Record<string, string[]> = {}, own: string[] = []): HostResolver {
  return {
    async lookup(hostname) {
      const found = names[hostname.toLowerCase()];
      if (!found?.length) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      return found;
    },
    ownAddresses: () => own,
  };
}

export interface TestContext<H extends RealtimeHub = RecordingHub> {
  app: App;
  db: Db;
  hub: H;
  deps: AppDeps;
  clock: TestClock;
  /** The real ConnectionManager (also `deps.channels`). */
  channels: ConnectionManager;
  /** The sandbox driver: `scan`, `inbound`, `read`; `sandbox.network.settle()` runs pending ack steps now. */
  sandbox: SandboxDriver;
}

/**
 * A fresh app on an in-memory database (or `databasePath` when given, to test restarts) with migrations and
 * default settings applied, and a real ConnectionManager with the sandbox driver as `deps.channels`. Events reach
 * a RecordingHub, or `hub` (a real one, for tests over sockets). Names resolve through `resolver`, by default
 * to nothing: no test reaches the network's DNS. In the suite's PostgreSQL run the app is on the test's database
 * (`testPgUrl`), and stopped when its test ends (`endTest`).
 */
export async function makeTestApp(
  overrides?: Partial<Config>,
  opts?: { resolver?: HostResolver },
): Promise<TestContext>;
export async function makeTestApp<H extends RealtimeHub>(
  overrides: Partial<Config>,
  opts: { hub: H; resolver?: HostResolver },
): Promise<TestContext<H>>;
export async function makeTestApp(
  overrides: Partial<Config> = {},
  opts: { hub?: RealtimeHub; resolver?: HostResolver } = {},
): Promise<TestContext<RealtimeHub>> {
  const config = testConfig(overrides);
  if (testsOnPostgres && !config.databaseUrl) config.databaseUrl = await pgDatabaseFor(overrides.databasePath);
  const hub = opts.hub ?? new RecordingHub();
  const clock = new TestClock();
  const { deps, db, channels, sandbox } = await composeDeps({
    config,
    hub,
    log: createLogger("silent"),
    clock,
    // Ack steps wait for `sandbox.network.settle()`: no timer outlives its test.
    manualSandboxAcks: true,
    cloudRetryDelaysMs: [0, 0],
    // One node: its events need not cross to others, its connections need no lease (the cluster tests run
    // nodes of their own).
    singleNode: true,
    resolver: opts.resolver ?? fakeResolver(),
  });
  const app = await createApp(deps);
  // `app.handle` has no server to tell the socket's peer: this one does, as Bun's would.
  Object.assign(app, {
    server: { requestIP: (request: Request) => ({ address: testPeers.get(request) ?? LOCAL_PEER }) },
  });
  const ctx = { app, db, hub, deps, clock, channels, sandbox };
  if (testsOnPostgres) openApps.push(ctx);
  return ctx;
}

/** The peer of a request handed to `app.handle` unless `fromPeer` names another: this machine. */
const LOCAL_PEER = "127.0.0.1";
const testPeers = new WeakMap<Request, string>();

/** Makes `request` arrive, under `app.handle` of a test app, from a socket whose peer is `address`. */
export function fromPeer(request: Request, address: string): Request {
  testPeers.set(request, address);
  return request;
}

/**
 * A test of what only the SQLite store has (its file, query plans, FTS5 tables, pragmas): skipped in the
 * suite's PostgreSQL run, where the same behaviour has tests of its own or does not apply.
 */
export const sqliteOnly = test.skipIf(testsOnPostgres);

/**
 * For an app composed by hand: in the suite's PostgreSQL run, the test's database (`testPgUrl`; the test stops
 * the app); on SQLite, nothing to add.
 */
export async function ownDatabase(): Promise<Pick<Config, "databaseUrl">> {
  return testsOnPostgres ? { databaseUrl: await pgDatabaseFor(undefined) } : {};
}

/**
 * A migrated database of the run's engine for a test that needs no app: in-memory SQLite, or a PostgreSQL one
 * (closed when its test ends).
 */
export async function testDatabase(): Promise<Db> {
  const db = await openStorage({ ...testConfig(), ...(await ownDatabase()) }, createLogger("silent"));
  if (testsOnPostgres) openDatabases.push(db);
  return db;
}

/** A restart test reopens the same `databasePath`: on PostgreSQL, the same database, within the test. */
const pgDatabases = new Map<string, string>();

async function pgDatabaseFor(databasePath: string | undefined): Promise<string> {
  const known = databasePath && pgDatabases.get(databasePath);
  if (known) return known;
  const url = `${await testPgUrl()}?max=4`;
  if (databasePath) pgDatabases.set(databasePath, url);
  return url;
}

/** What the running test opened on PostgreSQL: the next test's database is this one's, emptied. */
const openApps: TestContext<RealtimeHub>[] = [];
const openDatabases: Db[] = [];

/**
 * After each test of the suite's PostgreSQL run (tests/setup.ts): its apps stop as a server does (jobs,
 * connections, then the database), so none of them writes into the next test's rows. Without waiting for the
 * jobs running: a test awaits its own, but one that plays a crash leaves a run that never ends. An app whose
 * database the test closed itself (a restart) has nothing left to stop.
 */
export async function endTest() {
  for (const ctx of openApps.splice(0)) await stopTestApp(ctx).catch(unlessClosedByTheTest);
  for (const db of openDatabases.splice(0)) await closeDatabase(db);
  pgDatabases.clear();
  testEnded();
}

async function stopTestApp({ deps, channels, sandbox, db }: TestContext<RealtimeHub>) {
  const stopJobs = () => void deps.jobs.stop();
  await stopServer(
    { stopJobs, channels, sandboxNetwork: sandbox.network, db, events: deps.events, log: deps.log },
    "test ended",
  );
}

/** Drizzle wraps the driver's error in one of its own, as its `cause`. */
function unlessClosedByTheTest(error: unknown) {
  const { code } = ((error as { cause?: object }).cause ?? error) as { code?: string };
  if (code !== "ERR_POSTGRES_CONNECTION_CLOSED") throw error;
}

let connectionSeq = 0;

/** Inserts a sandbox connection (with queues, in order), starts it and, unless `scan: false`, pairs it (CONNECTED). */
export async function createSandboxConnection(
  ctx: TestContext<RealtimeHub>,
  opts: Partial<
    Pick<
      ConnectionRow,
      "name" | "greetingMessage" | "farewellMessage" | "outOfWorkMessage" | "isDefault" | "csatEnabled" | "csatMessage"
    >
  > & { queueIds?: number[]; scan?: boolean } = {},
): Promise<ConnectionRow> {
  const { queueIds = [], scan = true, ...fields } = opts;
  const row = await one(
    ctx.db
      .insert(connections)
      .values({ name: `Sandbox ${++connectionSeq}`, provider: "sandbox", ...fields })
      .returning(),
  );
  if (queueIds.length)
    await ctx.db.insert(connectionQueues).values(queueIds.map((queueId) => ({ whatsappId: row.id, queueId })));
  await ctx.channels.start(row.id);
  if (scan) await ctx.sandbox.scan(row.id);
  return (await first(ctx.db.select().from(connections).where(eq(connections.id, row.id))))!;
}

/** Sends a JSON request through app.handle (no port), from this machine unless `peer` says otherwise. */
export async function call(
  app: App,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string>; peer?: string } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const request = new Request(BASE + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const res = await app.handle(opts.peer ? fromPeer(request, opts.peer) : request);
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the answer it asked for
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

let userSeq = 0;

/** Creates a user directly in the database. */
export async function createUser(
  ctx: TestContext<RealtimeHub>,
  opts: { profile?: Role; email?: string; password?: string; name?: string; queueIds?: number[] } = {},
) {
  const password = opts.password ?? "password1";
  const email = opts.email ?? `user${++userSeq}@example.com`;
  const passwordHash = await hashPassword(password, ctx.deps.config.passwordHashing);
  const row = await insertUser(ctx.db, {
    name: opts.name ?? `User ${userSeq}`,
    email,
    passwordHash,
    profile: opts.profile ?? "user",
    queueIds: opts.queueIds,
  });
  return { ...row, password };
}

/** Creates a user and logs in through the API: returns its access token and refresh cookie. */
export async function loginAs(ctx: TestContext<RealtimeHub>, opts: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(ctx, opts);
  const res = await call(ctx.app, "POST", "/api/auth/login", {
    body: { email: user.email, password: user.password },
    headers: { "x-forwarded-for": `127.0.${userSeq % 250}.1` },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.json)}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { user, token: res.json.token as string, cookie };
}

/** A fresh app with one signed-in admin and one signed-in agent (without queues unless given). */
export async function setupAdminAndAgent(opts: { agent?: Parameters<typeof createUser>[1] } = {}) {
  const ctx = await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx, opts.agent);
  return { ctx, admin, agent };
}

/** The props JSON of the first island with that name (from the JSON script the page puts before it). */
export function islandProps(html: string, name: string) {
  const id = html.match(new RegExp(`data-island="${name}"[^>]*data-island-id="([^"]+)"`))?.[1];
  const m = id && html.match(new RegExp(`<script type="application/json" data-props-for="${id}">(.*?)</script>`, "s"));
  if (!m) throw new Error(`no island ${name}`);
  return JSON.parse(m[1]!);
}

/** A payload for tests of who hears a frame, not of what it says: any shape, accepted for every event. */
export function stubPayload(fields: object): never {
  return fields as never;
}

/** Queues Sales and Support, an admin Ada and an agent Ana of Sales: the cast of the ticket-history tests. */
export async function salesAndSupport(ctx: TestContext) {
  const [sales, support] = await ctx.db
    .insert(queues)
    .values([
      { name: "Sales", color: "#1e88e5", greetingMessage: "Sales here" },
      { name: "Support", color: "#43a047", greetingMessage: "Support here" },
    ])
    .returning();
  const admin = await loginAs(ctx, { profile: "admin", name: "Ada" });
  const agent = await loginAs(ctx, { queueIds: [sales!.id], name: "Ana" });
  return { sales: sales!, support: support!, admin, agent };
}
