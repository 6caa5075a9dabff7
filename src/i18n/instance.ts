import i18next, { type i18n, type Resource } from "i18next";
import { FALLBACK, type Lang } from "./shared";

/** A synchronously initialised i18next instance; server and client build identical ones so hydration text matches. */
export function createI18n(lng: Lang, resources: Resource): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng,
    fallbackLng: FALLBACK,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}
