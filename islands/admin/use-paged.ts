import { useCallback, useEffect, useRef, useState, type UIEvent } from "react";
import { api } from "../lib/api";

const SEARCH_DEBOUNCE_MS = 500;
const SCROLL_MARGIN_PX = 100;

/**
 * A searchable, paged list (`{<key>: T[], hasMore}` answers): the search is lowercased and debounced 500 ms,
 * the next page loads when the scroll box is within 100 px of its bottom.
 */
export function usePagedList<T extends { id: number }>(path: string, key: string) {
  const [search, setSearch] = useState("");
  const [param, setParam] = useState("");
  const [rows, setRows] = useState<T[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const generation = useRef(0);

  useEffect(() => {
    const id = setTimeout(() => {
      setParam(search.trim().toLowerCase());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  useEffect(() => {
    const mine = ++generation.current;
    setLoading(true);
    const query = new URLSearchParams({ searchParam: param, pageNumber: String(page) });
    api<Record<string, unknown> & { hasMore: boolean }>(`${path}?${query}`)
      .then((res) => {
        if (mine !== generation.current) return;
        const got = res[key] as T[];
        setRows((prev) => (page === 1 ? got : [...prev, ...got.filter((r) => !prev.some((p) => p.id === r.id))]));
        setHasMore(res.hasMore);
        setFailed(false);
      })
      .catch(() => mine === generation.current && setFailed(true))
      .finally(() => mine === generation.current && setLoading(false));
  }, [path, key, param, page]);

  const onScroll = useCallback(
    (e: UIEvent<HTMLElement>) => {
      const el = e.currentTarget;
      if (hasMore && !loading && el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_MARGIN_PX) setPage((p) => p + 1);
    },
    [hasMore, loading],
  );

  return { search, setSearch, rows, setRows, loading, failed, onScroll };
}
