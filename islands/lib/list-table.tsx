import type { ReactNode, UIEvent } from "react";
import { ListStatus } from "./list-ui";

/** One column of a list table: its heading, its cell, and a class for both (`col-actions`, …). */
export interface Column<T> {
  head: ReactNode;
  cell: (row: T) => ReactNode;
  className?: string;
  /** A class for the cells only. */
  cellClassName?: string;
  /** The cell's tooltip. */
  title?: (row: T) => string | undefined;
}

/** What a list table needs of a paged list (see use-paged-list). */
interface ListState<T> {
  rows: T[];
  loading: boolean;
  failed: boolean;
  onScroll: (e: UIEvent<HTMLElement>) => void;
}

/**
 * The scrolling table of a list screen with its empty, failed and loading line. Agent screens use `.table`
 * with the status below it, admin screens `.admin-table` with the status as a row. `rowAttributes` gives each
 * row its `data-*` id. Each cell carries its column's heading as `data-label`, which phones show above the value
 * when the rows become cards.
 */
export function ListTable<T extends { id: number }>({
  list,
  columns,
  rowAttributes,
  variant = "agent",
}: {
  list: ListState<T>;
  columns: (Column<T> | false)[];
  rowAttributes?: (row: T) => Record<`data-${string}`, string | number>;
  variant?: "agent" | "admin";
}) {
  const shown = columns.filter((c): c is Column<T> => c !== false);
  const status = (
    <ListStatus
      variant={variant}
      colSpan={variant === "admin" ? shown.length : undefined}
      loading={list.loading}
      empty={list.rows.length === 0}
      failed={variant === "admin" ? list.failed : undefined}
    />
  );
  const table = (
    <table className={variant === "admin" ? "admin-table" : "table"}>
      <thead>
        <tr>
          {shown.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed, never reordered
            <th key={i} className={c.className}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {list.rows.map((row) => (
          <tr key={row.id} {...rowAttributes?.(row)}>
            {shown.map((c, i) => (
              <td
                // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed, never reordered
                key={i}
                className={c.cellClassName ?? c.className}
                title={c.title?.(row)}
                data-label={typeof c.head === "string" ? c.head : undefined}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
        {variant === "admin" && status}
      </tbody>
    </table>
  );
  return variant === "admin" ? (
    <div className="admin-table-wrap scroll" onScroll={list.onScroll}>
      {table}
    </div>
  ) : (
    <div className="table-wrap" onScroll={list.onScroll} aria-busy={list.loading}>
      {table}
      {status}
    </div>
  );
}
