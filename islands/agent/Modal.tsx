import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { useT } from "../lib/i18n-context";

/** A native modal `<dialog>` (focus trap and Escape for free) with a title, a form body and cancel/ok buttons. */
export function Modal({ title, onClose, onSubmit, busy, okLabel, okDisabled, children }: { title: string; onClose: () => void; onSubmit: () => void; busy?: boolean; okLabel?: string; okDisabled?: boolean; children: ReactNode }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
  }, []);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!busy && !okDisabled) onSubmit();
  }
  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onClose())}>
      <form className="modal-form" noValidate onSubmit={submit}>
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <div className="modal-body">{children}</div>
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            {t("agent.common.cancel")}
          </button>
          <button type="submit" className="button primary" disabled={busy || okDisabled}>
            {okLabel ?? t("agent.common.ok")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A yes/no confirmation dialog (product §8 delete confirmations). */
export function Confirm({ title, text, onClose, onConfirm }: { title: string; text: string; onClose: () => void; onConfirm: () => void }) {
  const t = useT();
  return (
    <Modal title={title} onClose={onClose} onSubmit={onConfirm} okLabel={t("agent.common.confirm")}>
      <p>{text}</p>
    </Modal>
  );
}
