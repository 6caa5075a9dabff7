import { useId, useRef } from "react";
import { useT } from "./i18n-context";
import { toast } from "./toast";

/** A read-only value with a button that copies it; `copied` is the toast shown once it is copied. */
export function CopyField({
  label,
  value,
  button,
  copied,
}: {
  label: string;
  value: string;
  button: string;
  copied: string;
}) {
  const t = useT();
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Without the clipboard API (a page served over plain http from another host) the browser's own copy works.
      field.current?.select();
      if (!document.execCommand("copy")) return toast("error", t("admin.settings.copyFailed"));
    }
    toast("success", copied);
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input id={id} ref={field} value={value} readOnly />
        <button type="button" className="button small" onClick={() => void copy()}>
          {button}
        </button>
      </div>
    </div>
  );
}
