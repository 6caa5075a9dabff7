import { eq } from "drizzle-orm";
import type { Db, Writer } from "../../db/client";
import { importedRows } from "../../db/tables";

/** What one source table brought: new rows, rows found here already (a second run, a same-named queue), rows left out. */
export interface TableCount {
  imported: number;
  existing: number;
  skipped: number;
}

/**
 * The rows an import already brought in, per source table, held in memory while the import runs; each new one is
 * written in the same transaction as the row it maps to, so a stopped import resumes where it stopped.
 */
export class Ledger {
  private readonly maps = new Map<string, Map<string, number>>();
  readonly counts: Record<string, TableCount> = {};

  constructor(private readonly db: Db) {}

  /** The ids already imported from `source` (source id → id here). */
  async of(source: string): Promise<Map<string, number>> {
    let map = this.maps.get(source);
    if (!map) {
      const rows = await this.db
        .select({ sourceId: importedRows.sourceId, targetId: importedRows.targetId })
        .from(importedRows)
        .where(eq(importedRows.source, source));
      map = new Map(rows.map((row) => [row.sourceId, row.targetId]));
      this.maps.set(source, map);
    }
    return map;
  }

  async target(source: string, sourceId: unknown): Promise<number | undefined> {
    return sourceId == null ? undefined : (await this.of(source)).get(String(sourceId));
  }

  async remember(tx: Writer, source: string, sourceId: string, targetId: number, outcome: "imported" | "existing") {
    await tx.insert(importedRows).values({ source, sourceId, targetId }).onConflictDoNothing();
    (await this.of(source)).set(sourceId, targetId);
    this.count(source, outcome);
  }

  count(source: string, outcome: keyof TableCount, by = 1) {
    const counts = this.counts[source] ?? { imported: 0, existing: 0, skipped: 0 };
    counts[outcome] += by;
    this.counts[source] = counts;
  }
}
