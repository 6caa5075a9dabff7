/** One measured figure of `npm run bench`: what it is, its value, its target and, where there is one, the same-run baseline. */
export interface Figure {
  /** The target's id (M1…M8) or a short name for a comparison row. */
  id: string;
  what: string;
  value: number;
  unit: string;
  /** The target as people read it, e.g. "≥ 1000" or "p95 ≤ 10". */
  target?: string;
  met?: boolean;
  /** The same run's reference (bare Bun HTTP, raw SQLite insert, whaticket's query shape) and its value in the same unit. */
  baseline?: { what: string; value: number };
}

/** A signed-in admin for the benches that call the API: the access token and the refresh cookie. */
export interface BenchAuth {
  token: string;
  cookie: string;
}

/** The value at quantile `q` (0..1) of `samples`, which it sorts in place. */
export function quantile(samples: number[], q: number): number {
  samples.sort((a, b) => a - b);
  return samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? Number.NaN;
}
