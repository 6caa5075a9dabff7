import { useCallback, useEffect, useRef, useState, type UIEvent } from "react";
import type { ListQuery } from "../../src/shared/contracts";
import { api, queryString } from "./api";
import { errorText } from "./errors";
import { useT } from "./i18n-context";
import { toast } from "./toast";

const SEARCH_DEBOUNCE_MS = 500;
const SCROLL_MARGIN_PX = 100;

/** The first page of a list, loaded by the page route and passed to the island as a prop. */
export interface FirstPage<T> {
  rows: T[];
  hasMore: boolean;
}

/**
 * A searchable, paged list of `GET /api<path>?searchParam=&pageNumber=` answering `{<key>: T[], hasMore}`:
 * the search is lower-cased and debounced 500 ms, `onScroll` loads the next page within 100 px of the box's bottom.
 * A failed load sets `failed`, and with `toastErrors` also shows a toast. With `initial` (the first page, rendered
 * by the server) nothing is fetched until the user searches or scrolls.
 */
export function usePagedList<T extends { id: number }>(
  path: string,
  key: string,
  { toastErrors = false, initial }: { toastErrors?: boolean; initial?: FirstPage<T> | null } = {},
) {
  const t = useT();
  const [search, setSearch] = useState("");
  const [searchParam, setSearchParam] = useState("");
  const [rows, setRows] = useState<T[]>(initial?.rows ?? []);
  const [hasMore, setHasMore] = useState(initial?.hasMore ?? false);
  const [loading, setLoading] = useState(!initial);
  const [failed, setFailed] = useState(false);
  const page = useRef(1);
  const loaded = useRef(!!initial);

  useEffect(() => {
    const id = setTimeout(() => setSearchParam(search.trim().toLowerCase()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  const load = useCallback(
    async (pageNumber: number, signal?: AbortSignal) => {
      const query = queryString<ListQuery>({ pageNumber, searchParam: searchParam || undefined });
      setLoading(true);
      try {
        const res = await api<Record<string, unknown> & { hasMore: boolean }>(`${path}?${query}`, { signal });
        const got = (res[key] as T[]) ?? [];
        setRows((prev) => (pageNumber === 1 ? got : [...prev, ...got.filter((r) => !prev.some((p) => p.id === r.id))]));
        setHasMore(res.hasMore);
        setFailed(false);
        page.current = pageNumber;
      } catch (error) {
        if ((error as Error).name === "AbortError" || signal?.aborted) return;
        setFailed(true);
        if (toastErrors) toast("error", errorText(t, error));
      } finally {
        if (!signal?.aborted) setLoading(false);
      }
    },
    [path, key, t, toastErrors, searchParam],
  );

  // `load` changes with the search, which loads the first page again.
  useEffect(() => {
    // The server already rendered the unsearched first page.
    if (loaded.current) {
      loaded.current = false;
      return;
    }
    const ctrl = new AbortController();
    void load(1, ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const loadMore = useCallback(() => {
    if (hasMore && !loading) void load(page.current + 1);
  }, [hasMore, loading, load]);

  const onScroll = useCallback(
    (e: UIEvent<HTMLElement>) => {
      const el = e.currentTarget;
      if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_MARGIN_PX) loadMore();
    },
    [loadMore],
  );

  /** Applies a socket event: update or create puts the row first (if new), delete drops it. */
  const apply = useCallback((action: string, row: T | undefined, id: number | undefined) => {
    if ((action === "update" || action === "create") && row)
      setRows((prev) =>
        prev.some((p) => p.id === row.id)
          ? prev.map((p) => (p.id === row.id ? { ...p, ...row } : p))
          : action === "create"
            ? [row, ...prev]
            : prev,
      );
    else if (action === "delete" && id != null) setRows((prev) => prev.filter((p) => p.id !== id));
  }, []);

  return {
    search,
    setSearch,
    rows,
    setRows,
    hasMore,
    loading,
    failed,
    loadMore,
    onScroll,
    apply,
    reload: () => load(1),
  };
}
