import { useEffect, useState } from "react";
import { api } from "../lib/api";
import { useRowDelete } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { AdminHeader, ListStatus, RowActions } from "../lib/list-ui";
import { upsert, useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { toast } from "../lib/toast";
import { QueueModal } from "./QueueModal";
import type { Queue } from "./types";

/** /Queues: queue table (name, colour, greeting) with the add/edit modal and its chatbot option tree. */
export default function Queues() {
  const t = useT();
  const [rows, setRows] = useState<Queue[] | null>(null);
  const [editing, setEditing] = useState<Queue | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<Queue>((q) => `/queue/${q.id}`, (q) => setRows((r) => r && r.filter((x) => x.id !== q.id)), "admin.queues.deleted");

  useEffect(() => {
    api<Queue[]>("/queue")
      .then(setRows)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t]);

  useLive(["queue"], (payload) => {
    if (payload.action === "delete") setRows((r) => r && r.filter((q) => q.id !== payload.queueId));
    else if (payload.queue) setRows((r) => r && upsert(r, payload.queue));
  });

  return (
    <section className="page admin-page">
      <AdminHeader title={t("admin.queues.title")}>
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("admin.queues.add")}
        </button>
      </AdminHeader>
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
                  <RowActions variant="admin" onEdit={() => setEditing(q)} onDelete={() => setDeleting(q)} editLabel={t("admin.common.editNamed", { name: q.name })} deleteLabel={t("admin.common.deleteNamed", { name: q.name })} />
                </td>
              </tr>
            ))}
            <ListStatus variant="admin" colSpan={4} loading={!rows} empty={rows?.length === 0} />
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
      {deleting && <Confirm variant="admin" title={t("admin.queues.deleteTitle", { name: deleting.name })} text={t("admin.queues.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </section>
  );
}
