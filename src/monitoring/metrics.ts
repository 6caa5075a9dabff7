/**
 * A small Prometheus registry: counters and histograms kept in memory since start, gauges read when scraped.
 * Labels stay few and bounded (a status, a direction, a method), never ids.
 */
type Labels = Record<string, string>;
type Samples = { labels?: Labels; value: number }[];

const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());
const render = (labels: Labels) => {
  const pairs = Object.entries(labels).map(
    ([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`,
  );
  return pairs.length ? `{${pairs.join(",")}}` : "";
};

interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  lines(): string[] | Promise<string[]>;
}

export class Counter {
  private values = new Map<string, { labels: Labels; value: number }>();
  inc(labels: Labels = {}, by = 1) {
    const k = key(labels);
    const entry = this.values.get(k) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(k, entry);
  }
  lines(name: string) {
    return [...this.values.values()].map((e) => `${name}${render(e.labels)} ${e.value}`);
  }
}

export class Histogram {
  private series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(readonly buckets: readonly number[]) {}
  observe(value: number, labels: Labels = {}) {
    const k = key(labels);
    const s = this.series.get(k) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((le, i) => {
      if (value <= le) s.counts[i]!++;
    });
    s.sum += value;
    s.count++;
    this.series.set(k, s);
  }
  lines(name: string) {
    return [...this.series.values()].flatMap((s) => [
      ...this.buckets.map((le, i) => `${name}_bucket${render({ ...s.labels, le: String(le) })} ${s.counts[i]}`),
      `${name}_bucket${render({ ...s.labels, le: "+Inf" })} ${s.count}`,
      `${name}_sum${render(s.labels)} ${s.sum}`,
      `${name}_count${render(s.labels)} ${s.count}`,
    ]);
  }
}

export class MetricsRegistry {
  private families: Family[] = [];

  counter(name: string, help: string): Counter {
    const c = new Counter();
    this.families.push({ name, help, type: "counter", lines: () => c.lines(name) });
    return c;
  }

  histogram(name: string, help: string, buckets: readonly number[]): Histogram {
    const h = new Histogram(buckets);
    this.families.push({ name, help, type: "histogram", lines: () => h.lines(name) });
    return h;
  }

  /** A gauge read at scrape time: `read` returns one value per label set. */
  gauge(name: string, help: string, read: () => Samples | Promise<Samples>) {
    this.families.push({
      name,
      help,
      type: "gauge",
      lines: async () => (await read()).map((s) => `${name}${render(s.labels ?? {})} ${s.value}`),
    });
  }

  /** The text exposition format (version 0.0.4). */
  async text(): Promise<string> {
    const lines: string[] = [];
    for (const f of this.families)
      lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...(await f.lines()));
    return `${lines.join("\n")}\n`;
  }
}
