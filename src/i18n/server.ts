import type { i18n, Resource } from "i18next";
import en from "./locales/en.json";
import es from "./locales/es.json";
import pt from "./locales/pt.json";
import { createI18n, type Lang } from "./shared";

export const LOCALES = { pt, en, es } as const;

const instances = new Map<Lang, i18n>();

/** The `{[lng], en}` slice of translations a page ships to the browser. */
export function resourcesFor(lng: Lang): Resource {
  return { [lng]: { translation: LOCALES[lng] }, en: { translation: LOCALES.en } };
}

/** The shared server instance for a language, built the first time the server writes in it. */
export function i18nFor(lng: Lang): i18n {
  let instance = instances.get(lng);
  if (!instance) instances.set(lng, (instance = createI18n(lng, resourcesFor(lng))));
  return instance;
}

/** The fixed texts the server writes to customers by itself, each under `auto.` in the locales. */
export type AutoText = keyof (typeof LOCALES)["en"]["auto"];

/** A fixed text the server writes to customers (chatbot lines, missed calls, notices) in a connection's language. */
export function autoText(lang: Lang, key: AutoText, values?: Record<string, string>): string {
  return i18nFor(lang).t(`auto.${key}`, values ?? {});
}
