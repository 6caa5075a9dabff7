import { useCallback, useEffect, useState } from "react";
import type { Message } from "../../src/shared/contracts";
import { api } from "../lib/api";
import { useMounted } from "../lib/mounted";

/** Seconds before its expiry a link counts as expired: a file asked for then might not finish loading. */
const MARGIN_S = 30;

/** True when a signed link's `expires` has passed (or is about to). */
export function hasExpired(link: string, nowMs = Date.now()): boolean {
  const expires = Number(new URL(link, "http://link").searchParams.get("expires"));
  return Number.isFinite(expires) && expires > 0 && nowMs / 1000 >= expires - MARGIN_S;
}

/**
 * A message file's signed link (see src/http/signed-links.ts), null until the chat runs: the server-rendered page
 * shows placeholders, and files load once the chat can keep its place as they grow the list. Links last about an
 * hour; `renew` asks for a fresh one when this one expired while the chat stayed open (a player that fails, a
 * download clicked late), and answers it, or null when the link is still valid or none could be had.
 */
export function useMediaLink(m: Pick<Message, "id" | "mediaUrl">) {
  const mounted = useMounted();
  const [renewed, setRenewed] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new link from the server replaces a renewed one
  useEffect(() => setRenewed(null), [m.mediaUrl]);
  const src = mounted ? (renewed ?? m.mediaUrl) : null;
  const renew = useCallback(async () => {
    if (!src || !hasExpired(src)) return null;
    try {
      const { url } = await api<{ url: string }>(`/media/${m.id}/link`);
      setRenewed(url);
      return url;
    } catch {
      return null;
    }
  }, [src, m.id]);
  return { src, renew };
}
