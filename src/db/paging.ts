import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** Page size of every paged list except tickets. */
export const PAGE_SIZE = 20;

/** Limit and offset for a 1-based page number. */
export function pageWindow(pageNumber = 1, pageSize = PAGE_SIZE) {
  return { limit: pageSize, offset: pageSize * (Math.max(1, Math.floor(pageNumber)) - 1) };
}

/** `hasMore` as the reference computes it: rows remain after this page. */
export function hasMore(count: number, offset: number, returned: number) {
  return count > offset + returned;
}

/** The search text lower-cased and trimmed, or "" when absent. */
export function normalizeSearch(search: string | undefined) {
  return (search ?? "").trim().toLowerCase();
}

/** `lower(column) LIKE %search%` with LIKE wildcards in the search taken literally. */
export function contains(column: SQLWrapper, search: string): SQL {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`lower(${column}) like ${pattern} escape '\\'`;
}
