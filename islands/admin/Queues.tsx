import { useEffect, useState } from "react";
import { api, ApiError, callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { Select } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { AdminHeader, ListStatus, RowActions } from "../lib/list-ui";
import { upsert, useLive } from "../lib/live";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import { QueueModal } from "./QueueModal";
import type { Queue } from "../../src/shared/contracts";

/** /Queues: queue table (name, colour, greeting) with the add/edit modal and its chatbot option tree. */
export default function Queues({ initial }: { initial?: Queue[] | null }) {
  const t = useT();
  const [rows, setRows] = useState<Queue[] | null>(initial ?? null);
  const [editing, setEditing] = useState<Queue | "new" | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);

  useEffect(() => {
    if (initial) return;
    api<Queue[]>("/queue")
      .then(setRows)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t, initial]);

  useLive(["queue"], ({ action, queue, queueId }: { action: string; queue?: Queue; queueId?: number }) => {
    if (action === "delete") setRows((r) => r?.filter((q) => q.id !== queueId) ?? null);
    else if (queue) setRows((r) => r && upsert(r, queue));
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
                <td data-label={t("admin.common.name")}>{q.name}</td>
                <td data-label={t("admin.common.color")}>
                  <span className="admin-swatch" style={{ background: q.color }} title={q.color} />
                </td>
                <td data-label={t("admin.queues.greeting")} className="admin-clip">
                  {q.greetingMessage}
                </td>
                <td data-label={t("admin.common.actions")}>
                  <RowActions
                    variant="admin"
                    onEdit={() => setEditing(q)}
                    onDelete={() => setDeleting(q)}
                    editLabel={t("admin.common.editNamed", { name: q.name })}
                    deleteLabel={t("admin.common.deleteNamed", { name: q.name })}
                  />
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
      {deleting && (
        <DeleteQueueDialog
          queue={deleting}
          others={rows?.filter((q) => q.id !== deleting.id) ?? []}
          onClose={() => setDeleting(null)}
          onDeleted={() => setRows((r) => r?.filter((x) => x.id !== deleting.id) ?? null)}
        />
      )}
    </section>
  );
}

/**
 * The delete confirmation. A queue that still has tickets cannot just go (the server answers
 * ERR_QUEUE_HAS_TICKETS): the dialog then asks which queue they move to and deletes with `moveTo`.
 */
function DeleteQueueDialog({
  queue,
  others,
  onClose,
  onDeleted,
}: {
  queue: Queue;
  others: Queue[];
  onClose: () => void;
  onDeleted: () => void;
}) {
  const t = useT();
  const [moveTo, setMoveTo] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await callApi("DELETE /queue/:id", { params: { id: queue.id }, query: moveTo ? { moveTo } : undefined });
      onDeleted();
      toast("success", t("admin.queues.deleted"));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_QUEUE_HAS_TICKETS" && moveTo === null && others.length) {
        setMoveTo(others[0]!.id);
        setBusy(false);
        return;
      }
      toast("error", errorText(t, error));
      onClose();
    }
  }

  return (
    <Modal
      variant="admin"
      title={t("admin.queues.deleteTitle", { name: queue.name })}
      onClose={onClose}
      onSubmit={confirm}
      okLabel={t("admin.common.confirm")}
      busy={busy}
      danger
    >
      {moveTo === null ? (
        <p>{t("admin.queues.deleteText")}</p>
      ) : (
        <>
          <p>{t("errors.ERR_QUEUE_HAS_TICKETS")}</p>
          <Select
            label={t("admin.queues.moveTo")}
            value={String(moveTo)}
            onChange={(v) => setMoveTo(Number(v))}
            options={others.map((q) => ({ value: String(q.id), label: q.name }))}
          />
        </>
      )}
    </Modal>
  );
}
