import { useState } from "react";
import type { FieldRule } from "../../src/shared/validation";
import { ruleError } from "./form";
import { useT } from "./i18n-context";

/** A field the server refused, with its translated message (see `useFormSave`). */
export type ServerFieldError = { field: string; text: string } | null;

/**
 * A form's fields checked inline under the shared rules: a field shows its message once it has been typed in or left,
 * and every field does after a refused submit. A field the server refused shows the server's message instead.
 * `form` picks the form's own wording of a rule (see `ruleText`).
 */
export function useFieldChecks<K extends string>(
  rules: Record<K, FieldRule>,
  values: NoInfer<Record<K, unknown>>,
  form?: string,
) {
  const t = useT();
  const [shown, setShown] = useState<Partial<Record<K, boolean>>>({});
  const keys = Object.keys(rules) as K[];
  const problems = Object.fromEntries(keys.map((k) => [k, ruleError(t, rules[k], values[k], k, form)])) as Record<
    K,
    string | null
  >;
  const valid = keys.every((k) => !problems[k]);

  const touch = (k: K) => setShown((s) => (s[k] ? s : { ...s, [k]: true }));
  /** Shows every field's message; true when the form may be sent. */
  const checkAll = () => {
    setShown(Object.fromEntries(keys.map((k) => [k, true])) as Record<K, boolean>);
    return valid;
  };
  const error = (k: K, server?: ServerFieldError) =>
    server?.field === k ? server.text : shown[k] ? problems[k] : null;
  return { error, touch, checkAll, valid };
}
