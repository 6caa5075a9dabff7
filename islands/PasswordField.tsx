import { useState } from "react";
import { useT } from "./lib/i18n-context";
import { Icon } from "./lib/icons";

/** A password input with a show/hide toggle. */
export function PasswordField(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  autoComplete: string;
  onChange: (v: string) => void;
}) {
  const t = useT();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className="input-with-button">
        <input
          id={props.id}
          name={props.id}
          type={visible ? "text" : "password"}
          value={props.value}
          autoComplete={props.autoComplete}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${props.id}-error` : undefined}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <button
          type="button"
          className="icon-button"
          aria-pressed={visible}
          aria-label={t(visible ? "login.hidePassword" : "login.showPassword")}
          onClick={() => setVisible(!visible)}
        >
          <Icon name={visible ? "eyeOff" : "eye"} size={20} />
        </button>
      </div>
      {props.error && (
        <p className="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A labelled text input with its validation message. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  type?: string;
  autoComplete?: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.id}
        type={props.type ?? "text"}
        value={props.value}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && (
        <p className="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}
