import { useEffect, useState } from "react";
import { getToken } from "./api";

/** Media behind auth is fetched as a blob with the Bearer token and shown through an object URL. */
export function useMediaUrl(url: string | null): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let objectUrl: string | null = null;
    const ctrl = new AbortController();
    const token = getToken();
    fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: ctrl.signal })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!blob) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      ctrl.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src;
}
