import type { TFunction } from "i18next";
import { useId } from "react";
import { checkField, type FieldRule } from "../../src/shared/validation";
import { ruleText } from "./errors";
import { useT } from "./i18n-context";
import { COLOR_PRESETS } from "./color-presets";

/** A labelled text input (or textarea) with its validation message. */
export function Input({
  label,
  value,
  onChange,
  onBlur,
  error,
  type = "text",
  multiline,
  maxLength = 500,
  readOnly,
  autoComplete,
}: {
  label: string;
  value: string;
  onChange?: (v: string) => void;
  onBlur?: () => void;
  error?: string | null;
  type?: string;
  multiline?: boolean;
  maxLength?: number;
  readOnly?: boolean;
  autoComplete?: string;
}) {
  const id = useId();
  const common = {
    id,
    value,
    maxLength,
    readOnly,
    onBlur,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange?.(e.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          autoComplete={autoComplete ?? "off"}
          onChange={(e) => onChange?.(e.target.value)}
        />
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled select. */
export function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
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

/**
 * A colour: one of the presets with a click, any other typed as `#rrggbb` or chosen in the browser's colour picker
 * (which shows black until the typed value is a colour).
 */
export function ColorField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (color: string) => void;
  error?: string | null;
}) {
  const t = useT();
  const current = value.trim().toLowerCase();
  return (
    <div className="admin-color-field">
      <div className="admin-color">
        <Input label={t("admin.common.color")} value={value} onChange={onChange} error={error} maxLength={9} />
        <input
          type="color"
          aria-label={t("admin.common.pickColor")}
          value={/^#[0-9a-f]{6}$/i.test(value) ? value : "#000000"}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
      <fieldset className="color-presets" aria-label={t("admin.common.presetColors")}>
        {COLOR_PRESETS.map((color) => (
          <button
            key={color}
            type="button"
            className="color-preset"
            style={{ background: color }}
            aria-label={color}
            aria-pressed={current === color}
            onClick={() => onChange(color)}
          />
        ))}
      </fieldset>
    </div>
  );
}

/** A checkbox with its label, styled as a switch unless another class is given. */
export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
  className = "switch",
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <label className={className}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** A checkbox row with a colour swatch before its name (a queue, a tag). */
export function SwatchCheck({
  name,
  color,
  checked,
  onChange,
}: {
  name: string;
  color: string;
  checked: boolean;
  onChange: () => void;
}) {
  return (
    <label className="menu-check">
      <input type="checkbox" checked={checked} onChange={onChange} />
      <span className="swatch" style={{ background: color }} />
      {name}
    </label>
  );
}

/** A checkbox list of queues (multi-select). */
export function QueueChecks({
  queues,
  value,
  onChange,
  legend,
}: {
  queues: { id: number; name: string; color: string }[];
  value: number[];
  onChange: (ids: number[]) => void;
  /** "Queues" unless said otherwise. */
  legend?: string;
}) {
  const t = useT();
  if (!queues.length) return null;
  return (
    <fieldset className="admin-checks">
      <legend>{legend ?? t("admin.common.queues")}</legend>
      {queues.map((q) => (
        <SwatchCheck
          key={q.id}
          name={q.name}
          color={q.color}
          checked={value.includes(q.id)}
          onChange={() => onChange(value.includes(q.id) ? value.filter((v) => v !== q.id) : [...value, q.id])}
        />
      ))}
    </fieldset>
  );
}

/**
 * The translated message of a field rule, or null when valid; `field` and `form` pick the form's own wording
 * of a rule where it has one (see `ruleText`).
 */
export function ruleError(t: TFunction, rule: FieldRule, value: unknown, field?: string, form?: string): string | null {
  const problem = checkField(rule, value);
  return problem ? ruleText(t, problem.rule, field, form) : null;
}
