import { useState } from "react";
import { api } from "./api";
import { errorText } from "./errors";
import { useT } from "./i18n-context";
import { toast } from "./toast";

/**
 * A list row's delete flow: `deleting` is the row awaiting confirmation; `remove` sends `DELETE /api<path(row)>`,
 * then calls `onDeleted` and toasts `doneKey` (or toasts the error).
 */
export function useRowDelete<T>(path: (row: T) => string, onDeleted: (row: T) => void, doneKey: string) {
  const t = useT();
  const [deleting, setDeleting] = useState<T | null>(null);
  async function remove(row: T) {
    setDeleting(null);
    try {
      await api(path(row), { method: "DELETE" });
      onDeleted(row);
      toast("success", t(doneKey));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }
  return { deleting, setDeleting, remove };
}

/**
 * A modal form's save: `run(fn)` sets `busy` and clears the field error while `fn` runs; on failure it keeps the error
 * as `fieldError` when the server names the field, toasts it unless that field is one of `inlineFields` (which show
 * it next to the field, so it reads once), and clears `busy` (on success the modal closes, so `busy` stays).
 * `form` names the form for the field messages it words its own way (see `ruleText`).
 */
export function useFormSave(initialBusy = false, form?: string, inlineFields: readonly string[] = []) {
  const t = useT();
  const [busy, setBusy] = useState(initialBusy);
  const [fieldError, setFieldError] = useState<{ field: string; text: string } | null>(null);
  async function run(fn: () => Promise<void>) {
    setBusy(true);
    setFieldError(null);
    try {
      await fn();
    } catch (error) {
      const text = errorText(t, error, form);
      const field = (error as { field?: string | null }).field;
      if (field) setFieldError({ field, text });
      if (!field || !inlineFields.includes(field)) toast("error", text);
      setBusy(false);
    }
  }
  return { busy, setBusy, fieldError, run };
}
