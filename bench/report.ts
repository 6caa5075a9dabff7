/** The bench's output: one table on stdout and bench/results.json (figures, machine, date, commit). */
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type { Figure } from "./figure";
import { ROOT } from "./server-process";

export function printTable(figures: Figure[]) {
  const rows = figures.map((f) => [
    f.id,
    f.what,
    `${format(f.value)} ${f.unit}`,
    f.target ?? "",
    f.met === undefined ? "" : f.met ? "✓" : "✗",
    f.baseline ? `${format(f.baseline.value)} (${f.baseline.what})` : "",
    f.baseline?.value ? `${format(f.value / f.baseline.value)}×` : "",
  ]);
  const header = ["id", "what", "value", "target", "met", "baseline", "ratio"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

/** Writes bench/`file` (results.json, or results-soak.json for the soak). */
export async function writeResults(file: string, figures: Figure[], extra: Record<string, unknown> = {}) {
  const commit = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
  // The results files themselves do not make the tree dirty.
  const dirty = Bun.spawnSync(["git", "status", "--porcelain", "--", ".", ":!bench/results*.json"], { cwd: ROOT })
    .stdout.toString()
    .trim();
  const results = {
    date: new Date().toISOString(),
    commit: dirty !== "" ? `${commit}+uncommitted` : commit,
    machine: {
      cpu: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      memoryGiB: Math.round(totalmem() / 1024 ** 3),
      platform: `${process.platform}-${process.arch}`,
      bun: Bun.version,
    },
    ...extra,
    figures,
  };
  await Bun.write(join(ROOT, "bench", file), `${JSON.stringify(results, null, 2)}\n`);
}

function format(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  return abs >= 100 ? n.toFixed(0) : abs >= 10 ? n.toFixed(1) : n.toFixed(2);
}
