/** `url` without the pool's own settings (`?max=`, `?idle_timeout=`), for a connection kept open on its own. */
export function singleConnectionUrl(url: string): string {
  const [base, query = ""] = url.split("?", 2);
  const kept = query.split("&").filter((part) => part && !/^(max|idle_timeout)=/.test(part));
  return kept.length ? `${base}?${kept.join("&")}` : base!;
}
