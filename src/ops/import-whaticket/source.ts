import { SQL } from "bun";

/** One row of a whaticket table, with the column names of its Sequelize models ("createdAt", "whatsappId", ...). */
export type SourceRow = Record<string, unknown>;

const BATCH = 2000;

/**
 * A whaticket (whaticket, whaticket-community, whaticket-free) database, read-only: PostgreSQL or MySQL/MariaDB,
 * with the tables and camelCase columns their Sequelize migrations create. Forks add and drop tables and columns,
 * so a missing table reads as empty and every column is optional to the caller.
 */
export class WhaticketSource {
  private readonly sql: SQL;
  private readonly mysql: boolean;
  private present: Set<string> | null = null;

  constructor(url: string) {
    this.mysql = /^(mysql|mariadb):/i.test(url);
    if (!this.mysql && !/^postgres(ql)?:/i.test(url)) throw new Error("--from must be a postgres:// or mysql:// URL");
    this.sql = new SQL(this.mysql ? url.replace(/^mariadb:/i, "mysql:") : url);
  }

  private quote(name: string) {
    return this.mysql ? `\`${name}\`` : `"${name}"`;
  }

  /** The tables of the source's current schema. */
  async tables(): Promise<Set<string>> {
    if (!this.present) {
      const schema = this.mysql ? "DATABASE()" : "current_schema()";
      const rows = (await this.sql.unsafe(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${schema}`,
      )) as { name: string }[];
      this.present = new Set(rows.map((row) => row.name));
    }
    return this.present;
  }

  /**
   * Every row of `table` (none when the fork has no such table), in pages that follow its primary key `key`,
   * so a page costs an index range, not a sort of what came before.
   */
  async *rows(table: string, key = "id"): AsyncGenerator<SourceRow[]> {
    if (!(await this.tables()).has(table)) return;
    const column = this.quote(key);
    let last: unknown = null;
    for (;;) {
      const after = last === null ? "" : `WHERE ${column} > ${this.mysql ? "?" : "$1"}`;
      const page = (await this.sql.unsafe(
        `SELECT * FROM ${this.quote(table)} ${after} ORDER BY ${column} LIMIT ${BATCH}`,
        last === null ? [] : [last],
      )) as SourceRow[];
      if (page.length > 0) yield [...page];
      if (page.length < BATCH) return;
      last = page[page.length - 1]![key];
    }
  }

  /** All rows of a small table without a single-column key (a link table), at once. */
  async all(table: string): Promise<SourceRow[]> {
    if (!(await this.tables()).has(table)) return [];
    return [...((await this.sql.unsafe(`SELECT * FROM ${this.quote(table)}`)) as SourceRow[])];
  }

  async close() {
    await this.sql.close();
  }
}
