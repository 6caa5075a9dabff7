import type { i18n, Resource } from "i18next";
import type en from "./locales/en.json";
import type { Lang } from "./shared";

type Locale = typeof en;

/** Each language's texts, read the first time they are asked for (an idle server may write in none). */
export const LOCALES: Readonly<Record<Lang, Locale>> = {
  get pt() {
    return require("./locales/pt.json");
  },
  get en() {
    return require("./locales/en.json");
  },
  get es() {
    return require("./locales/es.json");
  },
};

const instances = new Map<Lang, i18n>();

const slices = new Map<Lang, Resource>();

/** The `{[lng], en}` slice of translations a page ships to the browser (the same object each time: see web/render). */
export function resourcesFor(lng: Lang): Resource {
  let slice = slices.get(lng);
  if (!slice) slices.set(lng, (slice = { [lng]: { translation: LOCALES[lng] }, en: { translation: LOCALES.en } }));
  return slice;
}

/**
 * The shared server instance for a language, built the first time the server writes in it; i18next itself is
 * loaded then too, so an idle server never evaluates it.
 */
export function i18nFor(lng: Lang): i18n {
  let instance = instances.get(lng);
  if (!instance) {
    const { createI18n } = require("./instance") as typeof import("./instance");
    instances.set(lng, (instance = keepingPlainTexts(createI18n(lng, resourcesFor(lng)))));
  }
  return instance;
}

/**
 * The instance, its `t(key)` answered from the texts it gave before: a page asks for the same few dozen texts each
 * time (the drawer, each row of the list: "2 unread"), and i18next resolves and interpolates each again (about
 * 10 µs a text with options). Texts with options are kept when the options are a few plain values, and only the
 * latest KEPT_TEXTS of them (a name in the options makes many). A server instance keeps its one language.
 */
function keepingPlainTexts(instance: i18n): i18n {
  const translate = instance.t as unknown as (...args: unknown[]) => unknown;
  const texts = new Map<string, unknown>();
  const withValues = new Map<string, unknown>();
  instance.t = ((key: unknown, ...rest: unknown[]) => {
    if (typeof key !== "string") return translate(key, ...rest);
    if (!rest.length) {
      let text = texts.get(key);
      if (text === undefined) texts.set(key, (text = translate(key)));
      return text;
    }
    const kept = rest.length === 1 ? keyWithValues(key, rest[0]) : undefined;
    if (kept === undefined) return translate(key, ...rest);
    let text = withValues.get(kept);
    if (text === undefined) {
      text = translate(key, ...rest);
      if (withValues.size >= KEPT_TEXTS) withValues.delete(withValues.keys().next().value!);
      withValues.set(kept, text);
    }
    return text;
  }) as unknown as i18n["t"];
  return instance;
}

const KEPT_TEXTS = 1000;

/** `key` with `options` when they are at most a few numbers and short strings; undefined otherwise. */
function keyWithValues(key: string, options: unknown): string | undefined {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return undefined;
  let kept = key;
  let count = 0;
  for (const name in options) {
    const value = (options as Record<string, unknown>)[name];
    if (++count > 3 || !((typeof value === "string" && value.length <= 64) || typeof value === "number"))
      return undefined;
    kept += `\u0000${name}\u0000${typeof value === "number" ? "n" : "s"}${value}`;
  }
  return kept;
}

/** The fixed texts the server writes to customers by itself, each under `auto.` in the locales. */
export type AutoText = keyof (typeof LOCALES)["en"]["auto"];

/** A fixed text the server writes to customers (chatbot lines, missed calls, notices) in a connection's language. */
export function autoText(lang: Lang, key: AutoText, values?: Record<string, string>): string {
  return i18nFor(lang).t(`auto.${key}`, values ?? {});
}
