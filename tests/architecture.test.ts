import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";

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
const CHANNEL_INTERFACES = ["src/channels/types", "src/channels/sandbox/controls"];

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
    "src/process-guards.ts",
  ],
  ["src/events/", "src/channels/", "src/realtime/", "src/jobs/", "src/http/", "src/ops/"],
  ["src/deps.ts"],
  ["src/modules/"],
  ["src/web/", "src/monitoring/"],
  ["src/app.ts", "src/compose.ts", "src/shutdown.ts"],
  ["src/server.ts", "src/cli.ts"],
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
