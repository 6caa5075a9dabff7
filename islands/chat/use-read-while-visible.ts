import { useCallback, useEffect, useRef } from "react";
import { callApi } from "../lib/api";

/**
 * Keeps the ticket on screen read: a customer message arriving while the page is visible is read at once (by
 * fetching the newest page, which is what opening the chat does); one arriving while the page is hidden is read
 * when the page shows again. Returns what to call when such a message arrives. A read already under way is
 * followed by one more rather than many.
 */
export function useReadWhileVisible(ticketId: number) {
  const unread = useRef(false);
  const busy = useRef(false);

  const read = useCallback(() => {
    if (busy.current || !unread.current || document.visibilityState !== "visible") return;
    unread.current = false;
    busy.current = true;
    callApi("GET /messages/:ticketId", { params: { ticketId }, query: { pageNumber: 1 }, noAuthRedirect: true })
      // A failed read leaves the badge, which the next arrival or opening clears.
      .catch(() => undefined)
      .finally(() => {
        busy.current = false;
        read();
      });
  }, [ticketId]);

  useEffect(() => {
    document.addEventListener("visibilitychange", read);
    return () => document.removeEventListener("visibilitychange", read);
  }, [read]);

  return useCallback(() => {
    unread.current = true;
    read();
  }, [read]);
}
