/** Writes THIRD-PARTY-LICENSES.md: every runtime dependency (transitively) that ships in the server or binary. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const root = join(import.meta.dir, "..");
const seen = new Map<string, { version: string; license: string }>();

function resolvePackageDir(name: string, from: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function visit(name: string, from: string) {
  const dir = resolvePackageDir(name, from);
  if (!dir) return;
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const key = `${pkg.name}@${pkg.version}`;
  if (seen.has(key)) return;
  const license =
    typeof pkg.license === "string"
      ? pkg.license
      : (pkg.license?.type ?? pkg.licenses?.map((l: { type: string }) => l.type).join(" OR ") ?? "UNKNOWN");
  seen.set(key, { version: pkg.version, license });
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
}

const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
for (const dep of Object.keys(own.dependencies ?? {})) visit(dep, root);

const rows = [...seen.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([key, v]) => `| ${key.slice(0, key.lastIndexOf("@"))} | ${v.version} | ${v.license} |`);
writeFileSync(
  join(root, "THIRD-PARTY-LICENSES.md"),
  `# Third-party licences\n\nZapdesk is AGPL-3.0-or-later (see LICENSE). The server and the compiled binary include these packages, found by \`bun scripts/licenses.ts\` from the installed dependency tree. Notably \`libsignal\` (pulled by Baileys) is GPL-3.0, which the AGPL is compatible with.\n\n| package | version | licence |\n|---|---|---|\n${rows.join("\n")}\n`,
);
console.log(`${rows.length} packages listed in THIRD-PARTY-LICENSES.md`);
