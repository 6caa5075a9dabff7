import type { TFunction } from "i18next";
import { ApiError } from "./api";

/**
 * The server's code looked up in the translated list, else shown raw, else the generic message. A field that failed
 * its rule reads as that rule in the reader's language, worded as `form` words it where it has its own wording.
 */
export function errorText(t: TFunction, error: unknown, form?: string): string {
  const code = error instanceof ApiError ? error.code : null;
  if (!code) return t("errors.generic");
  const { field, rule } = error as ApiError;
  if (code === "VALIDATION" && rule) return ruleText(t, rule, field ?? undefined, form);
  const key = `errors.${code}`;
  const translated = t(key);
  return translated === key ? code : translated;
}

/**
 * A failed rule (a code of `RULE_CODES`) in the reader's language: `validation.forms.<form>.<field>.<rule>` where a
 * form words a rule its own way (the schedule's "Mensagem muito curta"), else `validation.rules.<rule>`.
 */
export function ruleText(t: TFunction, rule: string, field?: string, form?: string): string {
  const general = `validation.rules.${rule}`;
  const keys = form && field ? [`validation.forms.${form}.${field}.${rule}`, general] : [general];
  return t(keys, { defaultValue: rule });
}
