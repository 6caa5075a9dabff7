import type { TFunction } from "i18next";
import { ApiError } from "./api";

/** The server's code looked up in the translated list, else shown raw, else the generic message. */
export function errorText(t: TFunction, error: unknown): string {
  const code = error instanceof ApiError ? error.code : null;
  if (!code) return t("errors.generic");
  const key = `errors.${code}`;
  const translated = t(key);
  return translated === key ? t(`validation.${code}`, { defaultValue: code }) : translated;
}
