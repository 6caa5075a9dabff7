import type { TFunction } from "i18next";
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { checkField, type FieldRule } from "../../src/shared/validation";
import { useT } from "../lib/i18n-context";
import { on } from "../lib/socket";

/** A native modal `<dialog>` (focus trap and Escape for free): title, form body, cancel/save buttons. */
export function Modal({ title, onClose, onSubmit, busy, okLabel, wide, children }: { title: string; onClose: () => void; onSubmit?: () => void; busy?: boolean; okLabel?: string; wide?: boolean; children: ReactNode }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
  }, []);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!busy) onSubmit?.();
  }
  return (
    <dialog ref={ref} className={`admin-modal${wide ? " wide" : ""}`} aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onClose())}>
      <form className="admin-modal-form" noValidate onSubmit={submit}>
        <h2 id={titleId} className="admin-modal-title">
          {title}
        </h2>
        <div className="admin-modal-body">{children}</div>
        <div className="admin-modal-actions">
          <button type="button" className="button" onClick={onClose}>
            {onSubmit ? t("admin.common.cancel") : t("admin.common.close")}
          </button>
          {onSubmit && (
            <button type="submit" className="button primary" disabled={busy}>
              {okLabel ?? t("admin.common.save")}
            </button>
          )}
        </div>
      </form>
    </dialog>
  );
}

/** A yes/no confirmation before a delete. */
export function Confirm({ title, text, onClose, onConfirm }: { title: string; text: string; onClose: () => void; onConfirm: () => void }) {
  const t = useT();
  return (
    <Modal title={title} onClose={onClose} onSubmit={onConfirm} okLabel={t("admin.common.confirm")}>
      <p>{text}</p>
    </Modal>
  );
}

/** A labelled text input (or textarea) with its validation message. */
export function Input({ label, value, onChange, error, type = "text", multiline, maxLength = 500, readOnly, autoComplete }: { label: string; value: string; onChange?: (v: string) => void; error?: string | null; type?: string; multiline?: boolean; maxLength?: number; readOnly?: boolean; autoComplete?: string }) {
  const id = useId();
  const common = {
    id,
    value,
    maxLength,
    readOnly,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? <textarea {...common} rows={3} onChange={(e) => onChange?.(e.target.value)} /> : <input {...common} type={type} autoComplete={autoComplete ?? "off"} onChange={(e) => onChange?.(e.target.value)} />}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled select. */
export function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (v: string) => void; options: { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A checkbox list of queues (multi-select). */
export function QueueChecks({ queues, value, onChange }: { queues: { id: number; name: string; color: string }[]; value: number[]; onChange: (ids: number[]) => void }) {
  const t = useT();
  if (!queues.length) return null;
  return (
    <fieldset className="admin-checks">
      <legend>{t("admin.common.queues")}</legend>
      {queues.map((q) => (
        <label key={q.id} className="menu-check">
          <input type="checkbox" checked={value.includes(q.id)} onChange={() => onChange(value.includes(q.id) ? value.filter((v) => v !== q.id) : [...value, q.id])} />
          <span className="swatch" style={{ background: q.color }} />
          {q.name}
        </label>
      ))}
    </fieldset>
  );
}

/** The translated message of a field rule, or null when valid. */
export function ruleError(t: TFunction, rule: FieldRule, value: unknown): string | null {
  const message = checkField(rule, value);
  return message ? t(`validation.${message}`, { defaultValue: message }) : null;
}

/** Runs `fn` on each of the given socket events while mounted. */
export function useLive(events: string[], fn: (payload: any, event: string) => void) {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    const offs = events.map((event) => on(event, (payload) => ref.current(payload, event)));
    return () => offs.forEach((off) => off());
    // Keyed by the names, not the array: callers pass a fresh literal on every render.
  }, [events.join()]);
}

/** Inserts or replaces a row by id, keeping the list order (new rows at the end). */
export function upsert<T extends { id: number }>(rows: T[], row: T): T[] {
  return rows.some((r) => r.id === row.id) ? rows.map((r) => (r.id === row.id ? row : r)) : [...rows, row];
}
