import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { useT } from "./i18n-context";

/**
 * The app's one modal: a native `<dialog>` (focus trap and Escape for free) with a title, a form body and cancel/ok buttons.
 * `variant` picks the screen's look and texts: "agent" (`.modal*`) or "admin" (`.admin-modal*`); both say Cancel/Save
 * (or Close alone without `onSubmit`) unless `okLabel` names the action.
 * A disabled OK says why next to it: `disabledReason`, else "Fill in the required fields". `danger` styles OK as a
 * destructive action (red instead of the primary green).
 */
export function Modal({
  title,
  onClose,
  onSubmit,
  busy,
  okLabel,
  okDisabled,
  disabledReason,
  wide,
  danger,
  variant = "agent",
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit?: () => void;
  busy?: boolean;
  okLabel?: string;
  okDisabled?: boolean;
  disabledReason?: string;
  wide?: boolean;
  danger?: boolean;
  variant?: "agent" | "admin";
  children: ReactNode;
}) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const reasonId = useId();
  const reason = okDisabled && !busy ? (disabledReason ?? t("validation.fillRequired")) : null;
  const cls = variant === "admin" ? "admin-modal" : "modal";
  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
  }, []);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!busy && !okDisabled) onSubmit?.();
  }
  return (
    <dialog
      ref={ref}
      className={`${cls}${wide ? " wide" : ""}`}
      aria-labelledby={titleId}
      onCancel={(e) => (e.preventDefault(), onClose())}
    >
      <form className={`${cls}-form`} noValidate onSubmit={submit}>
        <h2 id={titleId} className={`${cls}-title`}>
          {title}
        </h2>
        <div className={`${cls}-body`}>{children}</div>
        <div className={`${cls}-actions`}>
          {onSubmit && reason && (
            <p className="disabled-reason" id={reasonId}>
              {reason}
            </p>
          )}
          <button type="button" className="button" onClick={onClose}>
            {onSubmit ? t(`${variant}.common.cancel`) : t(`${variant}.common.close`)}
          </button>
          {onSubmit && (
            <button
              type="submit"
              className={danger ? "button danger" : "button primary"}
              disabled={busy || okDisabled}
              title={reason ?? undefined}
              aria-describedby={reason ? reasonId : undefined}
            >
              {okLabel ?? t(`${variant}.common.save`)}
            </button>
          )}
        </div>
      </form>
    </dialog>
  );
}

/** A yes/no confirmation before a destructive action (a delete, a restart): its OK is styled as a danger. */
export function Confirm({
  title,
  text,
  onClose,
  onConfirm,
  variant = "agent",
}: {
  title: string;
  text: string;
  onClose: () => void;
  onConfirm: () => void;
  variant?: "agent" | "admin";
}) {
  const t = useT();
  return (
    <Modal
      title={title}
      onClose={onClose}
      onSubmit={onConfirm}
      okLabel={t(`${variant}.common.confirm`)}
      variant={variant}
      danger
    >
      <p>{text}</p>
    </Modal>
  );
}
