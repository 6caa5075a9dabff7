import { format } from "date-fns";
import { useRef } from "react";
import { DATE_TIME, parseDateTime } from "./format";
import { useT } from "./i18n-context";
import { Icon } from "./icons";

/** What a browser's datetime-local input holds. */
const PICKER_VALUE = "yyyy-MM-dd'T'HH:mm";

/**
 * A date and time written the way the rest of the app shows dates (dd/MM/yyyy HH:mm), whatever the browser's
 * language, with a calendar button that opens the browser's own picker and writes its choice back in that format.
 * `value` is the text as typed; `parseDateTime` reads it.
 */
export function DateTimeField({
  id,
  label,
  value,
  onChange,
  onBlur,
  disabled,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  onBlur?: () => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const t = useT();
  const picker = useRef<HTMLInputElement>(null);

  function openPicker() {
    const el = picker.current;
    if (!el) return;
    const current = parseDateTime(value);
    el.value = current ? format(current, PICKER_VALUE) : "";
    try {
      el.showPicker();
    } catch {
      el.focus();
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="date-time-field">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t("dateTime.placeholder")}
          value={value}
          disabled={disabled}
          aria-invalid={!!error || undefined}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t("dateTime.pick")}
          title={t("dateTime.pick")}
          disabled={disabled}
          onClick={openPicker}
        >
          <Icon name="calendar" />
        </button>
        <input
          ref={picker}
          type="datetime-local"
          className="date-time-picker"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const picked = parseDateTime(e.target.value);
            if (picked) onChange(format(picked, DATE_TIME));
          }}
        />
      </div>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
