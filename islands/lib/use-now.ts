import { useEffect, useState } from "react";

/**
 * The current time, renewed every `everyMs` by a local timer (no request): null during SSR and hydration, so the
 * server's markup and the first client render agree.
 */
export function useNow(everyMs = 30_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
