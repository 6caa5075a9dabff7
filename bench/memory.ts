/**
 * M5: the server process's resident memory (VmRSS), idle on a new database (3 s and a minute after it answers) and after a run of inbound
 * messages, for the compiled binary and for the server bundle `npm start` runs (dist/server/server.js). In soak mode the
 * binary keeps receiving a steady flow for minutes while its memory is sampled: the figure is the largest
 * sample, and the slope says whether it keeps growing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Figure } from "./figure";
import { pairSandbox, sendInbound } from "./sandbox-load";
import { login, serverCommand, startServer } from "./server-process";

const IDLE_SETTLE_MS = 3000;
/** Idle stays idle: the maintenance jobs' first passes (availability at 15 s, the SLA sweep at 30 s) are behind. */
const IDLE_MINUTE_MS = 60_000;
const IDLE_TARGET = 56;
const LOADED_TARGET = 150;

export interface MemoryOptions {
  /** Inbound messages before the "after" sample (the target's 100,000). */
  messages: number;
  /** Minutes of steady inbound flow after them, sampling memory (0: no soak). */
  soakMinutes: number;
  soakPerSecond?: number;
}

export async function measureMemory(opts: MemoryOptions): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const kind of ["binary", "source"] as const) {
    const { settled, minute } = await idleRss(kind);
    const what = `RSS idle, ${kind === "binary" ? "compiled binary" : "npm start's bundle (dist/server)"} on a new database`;
    for (const [when, rss] of [
      ["", settled],
      [", after a minute", minute],
    ] as const)
      figures.push({
        id: "M5",
        what: what + when,
        value: rss,
        unit: "MiB",
        target: `≤ ${IDLE_TARGET}`,
        met: rss <= IDLE_TARGET,
      });
  }
  figures.push(...(await loadedRss(opts)));
  return figures;
}

/** RSS 3 s after the first `/health` 200, and a minute after it. */
async function idleRss(kind: "binary" | "source"): Promise<{ settled: number; minute: number }> {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-mem-"));
  try {
    // The first start creates the admin (a deliberately memory-hard password hash); idle is the next start.
    await (await startServer(serverCommand(kind), dir)).stop();
    const server = await startServer(serverCommand(kind), dir);
    await Bun.sleep(IDLE_SETTLE_MS);
    const settled = server.rssMiB();
    await Bun.sleep(IDLE_MINUTE_MS - IDLE_SETTLE_MS);
    const minute = server.rssMiB();
    await server.stop();
    return { settled, minute };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loadedRss(opts: MemoryOptions): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-mem-"));
  const server = await startServer(serverCommand("binary"), dir);
  try {
    const load = await pairSandbox(server.base, await login(server.base), () => login(server.base));
    const rate = await sendInbound(load, { count: opts.messages });
    await Bun.sleep(IDLE_SETTLE_MS);
    const after = server.rssMiB();
    const figures: Figure[] = [
      {
        id: "M5",
        what: `RSS of the binary after ${opts.messages.toLocaleString("en")} inbound messages over HTTP (${rate.toFixed(0)} msg/s)`,
        value: after,
        unit: "MiB",
        target: `≤ ${LOADED_TARGET}`,
        met: after <= LOADED_TARGET,
      },
    ];
    if (opts.soakMinutes > 0) figures.push(...(await soak(server.rssMiB, load, opts, after)));
    return figures;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function soak(
  rss: () => number,
  load: Parameters<typeof sendInbound>[0],
  opts: MemoryOptions,
  start: number,
): Promise<Figure[]> {
  const perSecond = opts.soakPerSecond ?? 100;
  const seconds = opts.soakMinutes * 60;
  const samples: { t: number; rss: number }[] = [];
  const began = performance.now();
  const sampler = setInterval(() => samples.push({ t: (performance.now() - began) / 60_000, rss: rss() }), 5000);
  try {
    await sendInbound(load, { count: perSecond * seconds, perSecond, senders: 16, offset: opts.messages });
  } finally {
    clearInterval(sampler);
  }
  const max = Math.max(start, ...samples.map((s) => s.rss));
  const slope = slopePerMinute(samples);
  return [
    {
      id: "M5",
      what: `RSS max over a ${opts.soakMinutes}-minute soak at ${perSecond} msg/s (${samples.length} samples)`,
      value: max,
      unit: "MiB",
      target: `≤ ${LOADED_TARGET}`,
      met: max <= LOADED_TARGET,
    },
    {
      id: "M5",
      what: "RSS slope over the soak (least squares; flat is about 0)",
      value: slope,
      unit: "MiB/min",
      target: "≤ 1",
      met: slope <= 1,
    },
  ];
}

/** Least-squares slope of rss over t (minutes). */
function slopePerMinute(samples: { t: number; rss: number }[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mt = samples.reduce((a, s) => a + s.t, 0) / n;
  const mr = samples.reduce((a, s) => a + s.rss, 0) / n;
  const cov = samples.reduce((a, s) => a + (s.t - mt) * (s.rss - mr), 0);
  const vt = samples.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  return vt ? cov / vt : 0;
}
