/** The bench's output: one table on stdout and bench/results.json (figures, machine, date, commit). */
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type { Figure } from "./figure";
import { ROOT } from "./server-process";

/** The width the `what` column wraps at: the figures' descriptions (CPU, counts, extremes) run long. */
const WHAT_WIDTH = 100;

export function printTable(figures: Figure[]) {
  const rows = figures.map((f) => [
    f.id,
    wrap(f.what, WHAT_WIDTH),
    `${format(f.value)} ${f.unit}`,
    f.target ?? "",
    f.met === undefined ? "" : f.met ? "✓" : "✗",
    f.baseline ? `${format(f.baseline.value)} (${f.baseline.what})` : "",
    f.baseline?.value ? `${format(f.value / f.baseline.value)}×` : "",
  ]);
  const header = ["id", "what", "value", "target", "met", "baseline", "ratio"];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => Math.max(...r[i]!.split("\n").map((part) => part.length)))),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) {
    const [firstLine, ...more] = r[1]!.split("\n");
    console.log(line([r[0]!, firstLine!, ...r.slice(2)]));
    for (const rest of more) console.log(line(["", rest]));
  }
}

/** `text` broken at spaces into lines of at most `width` characters (a longer word keeps a line of its own). */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  lines.push(current);
  return lines.join("\n");
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
