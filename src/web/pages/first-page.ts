import type { FirstPage } from "../../../islands/lib/use-paged-list";
import { toWire, type Wire } from "../../shared/contracts/wire";

/**
 * The first page of a list answer (`{<key>: rows, hasMore}`) as a list island takes it: only that page is embedded
 * in the HTML, the island fetches the next ones and searches itself.
 */
export function firstPage<K extends string, T>(
  answer: Record<K, T[]> & { hasMore: boolean },
  key: K,
): FirstPage<Wire<T>> {
  return toWire({ rows: answer[key], hasMore: answer.hasMore }) as FirstPage<Wire<T>>;
}
