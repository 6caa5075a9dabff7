import type { i18n, Resource } from "i18next";
import en from "./locales/en.json";
import es from "./locales/es.json";
import pt from "./locales/pt.json";
import { createI18n, LANGUAGES, type Lang } from "./shared";

export const LOCALES = { pt, en, es } as const;

const instances = new Map<Lang, i18n>(LANGUAGES.map((l) => [l, createI18n(l, resourcesFor(l))]));

/** The `{[lng], en}` slice of translations a page ships to the browser. */
export function resourcesFor(lng: Lang): Resource {
  return { [lng]: { translation: LOCALES[lng] }, en: { translation: LOCALES.en } };
}

/** The shared server instance for a language (built once at boot). */
export function i18nFor(lng: Lang): i18n {
  return instances.get(lng)!;
}

/** The fixed texts the server writes to customers by itself, each under `auto.` in the locales. */
export type AutoText = keyof (typeof LOCALES)["en"]["auto"];

/** A fixed text the server writes to customers (chatbot lines, missed calls, notices) in a connection's language. */
export function autoText(lang: Lang, key: AutoText, values?: Record<string, string>): string {
  return i18nFor(lang).t(`auto.${key}`, values ?? {});
}
