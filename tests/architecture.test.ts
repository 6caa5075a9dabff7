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
  { layer: "src/channels/baileys/", forbidden: ["src/modules/", "src/realtime/"] },
  { layer: "src/channels/sandbox/", forbidden: ["src/modules/", "src/realtime/"] },
];

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
      if (/^src\/(modules|channels)\//.test(file) && !/\/(index|plugin|model)\.tsx?$/.test(file))
        rules.push(...SERVICE_FORBIDDEN);
      for (const spec of importsOf(file))
        if (rules.some((f) => spec === f || spec.startsWith(f))) violations.push(`${file} → ${spec}`);
    }
    expect(violations).toEqual([]);
  });
});
