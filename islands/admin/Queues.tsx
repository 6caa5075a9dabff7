import { useEffect, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";
import { QueueModal } from "./QueueModal";
import type { Queue } from "./types";
import { Confirm, upsert, useLive } from "./ui";

/** /Queues: queue table (name, colour, greeting) with the add/edit modal and its chatbot option tree. */
export default function Queues() {
  const t = useT();
  const [rows, setRows] = useState<Queue[] | null>(null);
  const [editing, setEditing] = useState<Queue | "new" | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);

  useEffect(() => {
    api<Queue[]>("/queue")
      .then(setRows)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t]);

  useLive(["queue"], (payload) => {
    if (payload.action === "delete") setRows((r) => r && r.filter((q) => q.id !== payload.queueId));
    else if (payload.queue) setRows((r) => r && upsert(r, payload.queue));
  });

  async function remove(q: Queue) {
    setDeleting(null);
    try {
      await api(`/queue/${q.id}`, { method: "DELETE" });
      setRows((r) => r && r.filter((x) => x.id !== q.id));
      toast("success", t("admin.queues.deleted"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <section className="page admin-page">
      <div className="admin-header">
        <h1 className="page-title">{t("admin.queues.title")}</h1>
        <div className="admin-toolbar">
          <button type="button" className="button primary" onClick={() => setEditing("new")}>
            {t("admin.queues.add")}
          </button>
        </div>
      </div>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("admin.common.name")}</th>
              <th>{t("admin.common.color")}</th>
              <th>{t("admin.queues.greeting")}</th>
              <th>{t("admin.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows?.map((q) => (
              <tr key={q.id} data-queue-id={q.id}>
                <td>{q.name}</td>
                <td>
                  <span className="admin-swatch" style={{ background: q.color }} title={q.color} />
                </td>
                <td className="admin-clip">{q.greetingMessage}</td>
                <td>
                  <div className="admin-row-actions">
                    <button type="button" className="button small" onClick={() => setEditing(q)} aria-label={t("admin.common.editNamed", { name: q.name })}>
                      {t("admin.common.edit")}
                    </button>
                    <button type="button" className="button small danger" onClick={() => setDeleting(q)} aria-label={t("admin.common.deleteNamed", { name: q.name })}>
                      {t("admin.common.delete")}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
            {rows?.length === 0 && (
              <tr>
                <td colSpan={4} className="list-empty">
                  {t("admin.common.empty")}
                </td>
              </tr>
            )}
            {!rows && (
              <tr>
                <td colSpan={4} className="list-empty">
                  {t("app.loading")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {editing && (
        <QueueModal
          queueId={editing === "new" ? null : editing.id}
          onClose={() => setEditing(null)}
          onSaved={(q) => {
            setRows((r) => r && upsert(r, q));
            setEditing(null);
          }}
        />
      )}
      {deleting && <Confirm title={t("admin.queues.deleteTitle", { name: deleting.name })} text={t("admin.queues.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </section>
  );
}
