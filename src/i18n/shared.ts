export const LANGUAGES = ["pt", "en", "es"] as const;
export type Lang = (typeof LANGUAGES)[number];
export const FALLBACK: Lang = "en";
export const LANG_COOKIE = "lang";

/** True for a supported interface language. */
export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The interface language: the user's cookie choice, else the first supported Accept-Language, else English. */
export function pickLang(acceptLanguage: string | null | undefined, cookieLang: string | null | undefined): Lang {
  if (isLang(cookieLang)) return cookieLang;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.split("=")[1] ?? 1);
      return { base: tag.toLowerCase().split("-")[0]!, q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.map((x) => x.base).find(isLang) ?? FALLBACK;
}
