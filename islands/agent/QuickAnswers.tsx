import { useEffect, useState, type UIEvent } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { on } from "../lib/socket";
import { toast } from "../lib/toast";
import { Confirm, Modal } from "./Modal";
import type { QuickAnswer } from "./QuickAnswerPicker";
import { usePagedList } from "./use-paged-list";

const SCROLL_MARGIN_PX = 100;

/** /quickAnswers: searchable, infinitely scrolling table (shortcut, message, actions) with an add/edit modal. */
export default function QuickAnswers() {
  const t = useT();
  const list = usePagedList<QuickAnswer>("/quickAnswers", "quickAnswers");
  const [editing, setEditing] = useState<QuickAnswer | "new" | null>(null);
  const [deleting, setDeleting] = useState<QuickAnswer | null>(null);
  const { apply } = list;

  useEffect(() => on("quickAnswer", (p: { action: string; quickAnswer?: QuickAnswer; quickAnswerId?: number }) => apply(p.action, p.quickAnswer, p.quickAnswerId)), [apply]);

  function onScroll(e: UIEvent<HTMLDivElement>) {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_MARGIN_PX) list.loadMore();
  }

  async function remove(q: QuickAnswer) {
    setDeleting(null);
    try {
      await api(`/quickAnswers/${q.id}`, { method: "DELETE" });
      apply("delete", undefined, q.id);
      toast("success", t("agent.quickAnswers.deleted"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <div className="agent-list">
      <div className="list-toolbar">
        <input className="search" type="search" aria-label={t("agent.quickAnswers.search")} placeholder={t("agent.quickAnswers.search")} value={list.search} maxLength={100} onChange={(e) => list.setSearch(e.target.value)} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.quickAnswers.add")}
        </button>
      </div>
      <div className="table-wrap" onScroll={onScroll} aria-busy={list.loading}>
        <table className="table">
          <thead>
            <tr>
              <th>{t("agent.quickAnswers.shortcut")}</th>
              <th>{t("agent.quickAnswers.message")}</th>
              <th className="col-actions">{t("agent.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((q) => (
              <tr key={q.id}>
                <td>/{q.shortcut}</td>
                <td className="cell-text">{q.message}</td>
                <td className="col-actions">
                  <button type="button" className="button small" onClick={() => setEditing(q)} aria-label={t("agent.quickAnswers.editFor", { shortcut: q.shortcut })}>
                    {t("agent.common.edit")}
                  </button>
                  <button type="button" className="button small danger" onClick={() => setDeleting(q)} aria-label={t("agent.quickAnswers.deleteFor", { shortcut: q.shortcut })}>
                    {t("agent.common.delete")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!list.loading && list.rows.length === 0 && <p className="list-empty">{t("agent.common.empty")}</p>}
        {list.loading && <p className="list-empty">{t("app.loading")}</p>}
      </div>
      {editing && <QuickAnswerModal value={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={(q) => apply(editing === "new" ? "create" : "update", q, q.id)} />}
      {deleting && <Confirm title={t("agent.quickAnswers.deleteTitle", { shortcut: deleting.shortcut })} text={t("agent.quickAnswers.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </div>
  );
}

function QuickAnswerModal({ value, onClose, onSaved }: { value: QuickAnswer | null; onClose: () => void; onSaved: (q: QuickAnswer) => void }) {
  const t = useT();
  const [shortcut, setShortcut] = useState(value?.shortcut ?? "");
  const [message, setMessage] = useState(value?.message ?? "");
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: string; text: string } | null>(null);

  async function save() {
    setBusy(true);
    setFieldError(null);
    try {
      const saved = await api<QuickAnswer>(value ? `/quickAnswers/${value.id}` : "/quickAnswers", { method: value ? "PUT" : "POST", body: { shortcut, message } });
      toast("success", t("agent.quickAnswers.saved"));
      onSaved(saved);
      onClose();
    } catch (error) {
      const text = errorText(t, error);
      const field = (error as { field?: string | null }).field;
      if (field) setFieldError({ field, text });
      toast("error", text);
      setBusy(false);
    }
  }

  return (
    <Modal title={value ? t("agent.quickAnswers.edit") : t("agent.quickAnswers.add")} onClose={onClose} onSubmit={save} busy={busy}>
      <div className="field">
        <label htmlFor="qa-shortcut">{t("agent.quickAnswers.shortcut")}</label>
        <input id="qa-shortcut" value={shortcut} maxLength={15} aria-invalid={fieldError?.field === "shortcut" || undefined} onChange={(e) => setShortcut(e.target.value)} />
        {fieldError?.field === "shortcut" && <p className="field-error">{fieldError.text}</p>}
      </div>
      <div className="field">
        <label htmlFor="qa-message">{t("agent.quickAnswers.message")}</label>
        <textarea id="qa-message" rows={5} value={message} maxLength={30000} aria-invalid={fieldError?.field === "message" || undefined} onChange={(e) => setMessage(e.target.value)} />
        {fieldError?.field === "message" && <p className="field-error">{fieldError.text}</p>}
      </div>
    </Modal>
  );
}
