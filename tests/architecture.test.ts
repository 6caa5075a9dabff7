import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { engineMark, OPENS_A_DATABASE, runsProcesses } from "./engine-marks";

const root = join(import.meta.dir, "..");

/** Which layer may not import which (paths relative to the repo root). */
const RULES: { layer: string; forbidden: string[] }[] = [
  {
    layer: "src/db/",
    forbidden: ["src/modules/", "src/channels/", "src/realtime/", "src/web/", "src/jobs/", "islands/"],
  },
  {
    layer: "src/shared/",
    forbidden: [
      "src/db/",
      "src/modules/",
      "src/channels/",
      "src/realtime/",
      "src/web/",
      "src/jobs/",
      "src/http/",
      "islands/",
      "elysia",
    ],
  },
  {
    layer: "islands/",
    forbidden: [
      "src/db/",
      "src/modules/",
      "src/realtime/",
      "src/web/",
      "src/channels/",
      "src/jobs/",
      "src/http/",
      "elysia",
      "drizzle-orm",
    ],
  },
  { layer: "src/channels/", forbidden: ["src/modules/", "src/realtime/", "src/web/", "src/jobs/"] },
];

/** The only channel files modules may import: contracts, never a driver or the manager. */
const CHANNEL_INTERFACES = ["src/channels/types", "src/channels/sandbox/controls", "src/channels/cloud/webhooks"];

const SERVICE_FORBIDDEN = ["elysia", "src/web/", "islands/"];

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1] ?? m[2]!);
  return specs.map((s) => (s.startsWith(".") ? relative(root, resolve(dirname(join(root, file)), s)) : s));
}

function sources(): string[] {
  return [...new Bun.Glob("{src,islands}/**/*.{ts,tsx}").scanSync({ cwd: root })];
}

describe("layer rules", () => {
  test("no layer imports what it may not", () => {
    const violations: string[] = [];
    for (const file of sources()) {
      const rules = RULES.filter((r) => file.startsWith(r.layer)).flatMap((r) => r.forbidden);
      // Services and domain logic: everything in a module except its routes (index.ts), auth plugin and models.
      if (/^src\/(modules|channels)\//.test(file) && !/\/(index|plugin|model|request-guard)\.tsx?$/.test(file))
        rules.push(...SERVICE_FORBIDDEN);
      for (const spec of importsOf(file))
        if (rules.some((f) => spec === f || spec.startsWith(f))) violations.push(`${file} → ${spec}`);
    }
    expect(violations).toEqual([]);
  });

  test("modules reach channels only through their interfaces", () => {
    const violations: string[] = [];
    for (const file of sources().filter((f) => f.startsWith("src/modules/")))
      for (const spec of importsOf(file))
        if (spec.startsWith("src/channels/") && !CHANNEL_INTERFACES.includes(spec))
          violations.push(`${file} → ${spec}`);
    expect(violations).toEqual([]);
  });
});

/**
 * Which engine answers is src/db's business: it chooses it, and hands modules engine-neutral functions (search
 * SQL, index hints, instants, id sequences, temporary storage) instead of the choice itself. A module branching
 * on the engine would put engine SQL where the next engine change cannot find it.
 */
const ENGINE_BRANCH = /\b(onPostgres|dialectOf)\b/;
/** The engine comes from the configuration (`databaseUrl`), which alone reads the environment for it. */
const ENGINE_FROM_ENV = /(process|Bun)\.env(\.DATABASE_URL\b|\[\s*["']DATABASE_URL["']\s*\])/;

describe("the engine", () => {
  test("no file outside src/db branches on the engine", () => {
    const branching = sources().filter(
      (file) => !file.startsWith("src/db/") && ENGINE_BRANCH.test(readFileSync(join(root, file), "utf8")),
    );
    expect(branching).toEqual([]);
  });

  test("only the configuration reads the engine from the environment; src/db reads no environment at all", () => {
    const reading = sources().filter((file) => {
      const text = readFileSync(join(root, file), "utf8");
      if (file === "src/config.ts") return false;
      return ENGINE_FROM_ENV.test(text) || (file.startsWith("src/db/") && /\b(process|Bun)\.env\b/.test(text));
    });
    expect(reading).toEqual([]);
  });
});

/**
 * The floors of the server, lowest first. A file may import its own floor or lower ones, never a higher one;
 * within a floor, the cycle check below keeps the imports one-way.
 */
const FLOORS: string[][] = [
  ["src/shared/"],
  [
    "src/db/",
    "src/i18n/",
    "src/config.ts",
    "src/log.ts",
    "src/errors.ts",
    "src/paths.ts",
    "src/private-files.ts",
    "src/data-dirs.ts",
    "src/process-guards.ts",
  ],
  ["src/events/", "src/channels/", "src/realtime/", "src/jobs/", "src/http/", "src/ops/"],
  ["src/deps.ts"],
  ["src/modules/"],
  ["src/web/", "src/monitoring/"],
  ["src/app.ts", "src/compose.ts", "src/shutdown.ts"],
  ["src/start.ts", "src/server.ts", "src/cli.ts", "src/jit-policy.ts"],
];

function floorOf(path: string): number {
  return FLOORS.findIndex((floor) => floor.some((p) => path === p || path.startsWith(p) || `${path}.ts` === p));
}

/** Relative imports resolved to files of the tree (extension and index added as the bundler does). */
function localImportsOf(file: string, files: Set<string>): string[] {
  return importsOf(file)
    .map((spec) => [spec, `${spec}.ts`, `${spec}.tsx`, `${spec}/index.ts`].find((f) => files.has(f)))
    .filter((f): f is string => f !== undefined);
}

describe("floors and circles", () => {
  const files = new Set(sources());

  test("every server file stands on a floor", () => {
    const homeless = [...files].filter((f) => f.startsWith("src/") && floorOf(f) < 0);
    expect(homeless).toEqual([]);
  });

  test("no import runs up a floor", () => {
    const upward: string[] = [];
    for (const file of files) {
      if (!file.startsWith("src/")) continue;
      for (const target of localImportsOf(file, files))
        if (target.startsWith("src/") && floorOf(target) > floorOf(file)) upward.push(`${file} → ${target}`);
    }
    expect(upward).toEqual([]);
  });

  test("no circle of imports, type imports included", () => {
    const graph = new Map([...files].map((f) => [f, localImportsOf(f, files)]));
    expect(circlesOf(graph)).toEqual([]);
  });

  test("no source file is over 400 lines", () => {
    const long = [...files].filter((f) => readFileSync(join(root, f), "utf8").split("\n").length > 400);
    expect(long).toEqual([]);
  });
});

/** The strongly connected groups of more than one file (Tarjan), each as a sorted list. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/**
 * Each table has one owner: the only place that writes it and answers the simple questions about it. Other
 * modules call the owner's functions instead of reading or changing its rows.
 */
const TABLE_OWNERS: Record<string, string> = {
  users: "src/modules/users/",
  aiCalls: "src/modules/ai/",
  userQueues: "src/modules/users/",
  connections: "src/modules/connections/",
  connectionQueues: "src/modules/connections/",
  connectionPhonebook: "src/modules/connections/",
  cloudAccounts: "src/modules/connections/",
  queues: "src/modules/queues/",
  chatbots: "src/modules/queues/",
  contacts: "src/modules/contacts/",
  contactExtraInfo: "src/modules/contacts/",
  tickets: "src/modules/tickets/",
  ticketDialogs: "src/modules/tickets/",
  ticketDrafts: "src/modules/tickets/",
  ticketEvents: "src/modules/tickets/",
  ticketTags: "src/modules/tickets/",
  messages: "src/modules/messages/",
  messageReactions: "src/modules/messages/",
  quickAnswers: "src/modules/quick-answers/",
  schedules: "src/modules/schedules/",
  massMessages: "src/modules/bulk/",
  jobLanes: "src/jobs/",
  optOuts: "src/modules/bulk/",
  settingsMessage: "src/modules/settings-message/",
  settings: "src/modules/settings/",
  tags: "src/modules/tags/",
  refreshFamilies: "src/modules/auth/",
  jobs: "src/jobs/",
  webhookEndpoints: "src/modules/webhooks/",
  webhookDeliveries: "src/modules/webhooks/",
  webhookAttempts: "src/modules/webhooks/",
  webhookTicketStatus: "src/modules/webhooks/",
  waAuthCreds: "src/channels/",
  waAuthKeys: "src/channels/",
  waSentMessages: "src/channels/",
  cloudSentMessages: "src/channels/",
  inboundJournal: "src/channels/",
  sandboxMessages: "src/channels/",
  importedRows: "src/ops/import-whaticket/",
  eventPayloads: "src/events/",
  appVersions: "src/db/",
  clusterSecrets: "src/modules/auth/",
  connectionLeases: "src/channels/",
  connectionCommands: "src/channels/",
};

/**
 * Data migrations that may write every table: they copy another installation's rows in as they are (like a
 * schema migration, with no domain rule to decide), from the command line, not while requests are served.
 */
const DATA_MIGRATIONS: Record<string, string> = {
  "src/ops/import-whaticket/": "copies a whaticket installation's tables into ours, once per row",
  "src/ops/migrate-to-postgres.ts": "copies every table of the SQLite database into PostgreSQL as it is",
};

/**
 * Read models that join another module's tables in one query where asking each owner would cost a query per
 * row or per relation. Reads only: a file listed here still may not write these tables.
 */
const READ_MODEL_JOINS: Record<string, { tables: string[]; why: string }> = {
  "src/modules/tickets/serialize.ts": {
    tables: ["tags"],
    why: "a ticket's tags come with their names in one join over the link table, not one more query per page",
  },
  "src/modules/schedules/service.ts": {
    tables: ["contacts"],
    why: "the schedule list searches the contact's name and pages in the same query",
  },
  "src/modules/messages/report-counts.ts": {
    tables: ["tickets"],
    why: "the reports count agents' messages per queue of their ticket in one grouped join, not a lookup per message",
  },
  "src/modules/messages/window.ts": {
    tables: ["tickets"],
    why: "the customer's last message on a connection is found over all their tickets in one join, not one query per ticket",
  },
  "src/modules/messages/arrival.ts": {
    tables: ["contacts"],
    why: "every inbound message asks whether it is stored and who holds its chat's number in one statement, not two",
  },
  "src/modules/auth/session-user.ts": {
    tables: ["users", "userQueues"],
    why: "every request's sign-in check reads the user, their queues and the session in one statement, not three",
  },
  "src/modules/dashboard/onboarding.ts": {
    tables: ["connections", "queues", "users"],
    why: "the first-run checklist asks whether a number, a queue and an agent exist in one statement, not four",
  },
  "src/modules/tickets/assignment-queries.ts": {
    tables: ["userQueues", "users"],
    why: "an assignment reads a queue's members with their open tickets there in one query under the queue's lock",
  },
};

/** The tables a file imports from db/schema or one of its files (type imports left out), multi-line imports included. */
function tablesImportedBy(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'][./]*db\/(?:schema|tables)(?:\/[\w-]+)?["']/g)].flatMap(
    (m) =>
      m[1]!
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith("type ")),
  );
}

describe("table owners", () => {
  test("every table has an owner", async () => {
    const schema = await import("../src/db/tables");
    const { SQLiteTable } = await import("drizzle-orm/sqlite-core");
    const { is } = await import("drizzle-orm");
    const tables = Object.entries(schema)
      .filter(([, value]) => is(value, SQLiteTable))
      .map(([name]) => name);
    expect(tables.filter((name) => !TABLE_OWNERS[name])).toEqual([]);
  });

  test("a file uses only the tables its module owns, besides the listed read models", () => {
    const foreign: string[] = [];
    for (const file of sources()) {
      if (!file.startsWith("src/") || file.startsWith("src/db/")) continue;
      if (Object.keys(DATA_MIGRATIONS).some((folder) => file.startsWith(folder))) continue;
      const allowed = READ_MODEL_JOINS[file]?.tables ?? [];
      for (const table of tablesImportedBy(file)) {
        const owner = TABLE_OWNERS[table];
        if (owner && !file.startsWith(owner) && !allowed.includes(table)) foreign.push(`${file} → ${table}`);
      }
    }
    expect(foreign).toEqual([]);
  });

  test("each listed read model says why and still joins what it is listed for (the list may only shrink)", () => {
    const stale = Object.entries(READ_MODEL_JOINS).flatMap(([file, { tables, why }]) => {
      const used = tablesImportedBy(file);
      return [...tables.filter((table) => !used.includes(table)), ...(why.trim() ? [] : ["no reason"])].map(
        (problem) => `${file}: ${problem}`,
      );
    });
    expect(stale).toEqual([]);
  });

  test("a read model never writes another module's table", () => {
    const writes = Object.entries(READ_MODEL_JOINS).flatMap(([file, { tables }]) => {
      const text = readFileSync(join(root, file), "utf8");
      return tables
        .filter((table) => new RegExp(`\\.(insert|update|delete)\\(\\s*${table}\\b`).test(text))
        .map((table) => `${file} writes ${table}`);
    });
    expect(writes).toEqual([]);
  });

  test("no raw SQL on another module's table", () => {
    const raw: string[] = [];
    const sqlNames = Object.fromEntries(
      Object.keys(TABLE_OWNERS).map((name) => [name, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
    );
    for (const file of sources()) {
      if (!/^src\/(modules|channels)\//.test(file)) continue;
      const text = readFileSync(join(root, file), "utf8");
      // The SQL text itself: a table interpolated as `${table.column}` is an import, checked above.
      const statements = [...text.matchAll(/(?:sql`|\.query\(|\.prepare\(|\.exec\()([^`]*?)(?:`|\))/g)].map((m) =>
        m[1]!.replace(/\$\{[^}]*\}/g, ""),
      );
      for (const [name, owner] of Object.entries(TABLE_OWNERS))
        if (!file.startsWith(owner) && statements.some((s) => new RegExp(`\\b${sqlNames[name]}\\b`, "i").test(s)))
          raw.push(`${file} → ${sqlNames[name]}`);
    }
    expect(raw).toEqual([]);
  });
});

describe("test files and engines", () => {
  test("every test file that opens a database says whether its behaviour depends on the engine (// @engine each or once)", () => {
    const unmarked = [...new Bun.Glob("tests/**/*.test.{ts,tsx}").scanSync({ cwd: root })].filter((file) => {
      const text = readFileSync(join(root, file), "utf8");
      return OPENS_A_DATABASE.test(text) && !engineMark(text);
    });
    expect(unmarked).toEqual([]);
  });

  test("the PostgreSQL run covers the files about the engine-specific code: search, ticket lists, locks, jobs, the inbound pipeline, the importer", () => {
    const each = [...new Bun.Glob("tests/**/*.test.{ts,tsx}").scanSync({ cwd: root })].filter(
      (file) => engineMark(readFileSync(join(root, file), "utf8")) === "each",
    );
    for (const file of [
      "tests/search.test.ts",
      "tests/tickets-service.test.ts",
      "tests/ticket-list-paging.test.ts",
      "tests/group-commit.test.ts",
      "tests/jobs.test.ts",
      "tests/import-whaticket.test.ts",
      "tests/channels/baileys-crash.test.ts",
    ])
      expect(each).toContain(file);
  });

  test("the tests that run and kill server processes (crash, cluster) run in their own group", () => {
    const spawning = [...new Bun.Glob("tests/**/*.test.{ts,tsx}").scanSync({ cwd: root })].filter(
      (file) =>
        file !== "tests/architecture.test.ts" &&
        /\bstartNode\b|app-process|bulk-app-process/.test(readFileSync(join(root, file), "utf8")),
    );
    expect(spawning.length).toBeGreaterThan(0);
    for (const file of spawning)
      expect({ file, alone: runsProcesses(readFileSync(join(root, file), "utf8")) }).toEqual({ file, alone: true });
  });
});
