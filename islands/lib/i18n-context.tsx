import type { i18n, TFunction } from "i18next";
import { createContext, useContext, type ReactNode } from "react";

const I18nContext = createContext<i18n | null>(null);

/** Makes one i18next instance available to an island tree (server and client). */
export function I18nProvider({ i18n, children }: { i18n: i18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/** The translate function of the surrounding provider. */
export function useT(): TFunction {
  const instance = useContext(I18nContext);
  if (!instance) throw new Error("useT() outside I18nProvider");
  return instance.t;
}

/** The i18next instance of the surrounding provider. */
export function useI18n(): i18n {
  const instance = useContext(I18nContext);
  if (!instance) throw new Error("useI18n() outside I18nProvider");
  return instance;
}
