import { addHours, format } from "date-fns";
import { useEffect, useState, type UIEvent } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { useMounted } from "../lib/mounted";
import { on } from "../lib/socket";
import { toast } from "../lib/toast";
import { ContactPicker } from "./ContactPicker";
import { Confirm, Modal } from "./Modal";
import { usePagedList } from "./use-paged-list";

const SCROLL_MARGIN_PX = 100;
const BODY_PREVIEW = 25;

export interface Schedule {
  id: number;
  body: string;
  contactId: number;
  sendAt: string;
  sentAt: string | null;
  status: "PENDENTE" | "AGENDADA" | "ENVIADA" | "ERRO";
  contact: { id: number; name: string; number: string } | null;
}

/** Product §2: the body cut at 25 characters with an ellipsis. */
export function truncateBody(body: string): string {
  return body.length > BODY_PREVIEW ? `${body.slice(0, BODY_PREVIEW)}...` : body;
}

/** /schedules: search, infinite scroll, contact / body / send time / status columns, add/edit modal and delete. */
export default function Schedules() {
  const t = useT();
  const mounted = useMounted();
  const list = usePagedList<Schedule>("/schedules", "schedules");
  const [editing, setEditing] = useState<Schedule | "new" | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const { apply } = list;

  useEffect(() => on("schedule", (p: { action: string; schedule?: Schedule; scheduleId?: number }) => apply(p.action, p.schedule, p.scheduleId)), [apply]);

  function onScroll(e: UIEvent<HTMLDivElement>) {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_MARGIN_PX) list.loadMore();
  }

  async function remove(s: Schedule) {
    setDeleting(null);
    try {
      await api(`/schedules/${s.id}`, { method: "DELETE" });
      apply("delete", undefined, s.id);
      toast("success", t("agent.schedules.deleted"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <div className="agent-list">
      <div className="list-toolbar">
        <input className="search" type="search" aria-label={t("agent.schedules.search")} placeholder={t("agent.schedules.search")} value={list.search} maxLength={100} onChange={(e) => list.setSearch(e.target.value)} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.schedules.add")}
        </button>
      </div>
      <div className="table-wrap" onScroll={onScroll} aria-busy={list.loading}>
        <table className="table">
          <thead>
            <tr>
              <th>{t("agent.schedules.contact")}</th>
              <th>{t("agent.schedules.body")}</th>
              <th>{t("agent.schedules.sendAt")}</th>
              <th>{t("agent.schedules.status")}</th>
              <th className="col-actions">{t("agent.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((s) => (
              <tr key={s.id}>
                <td>{s.contact?.name ?? ""}</td>
                <td title={s.body}>{truncateBody(s.body)}</td>
                <td>
                  <time dateTime={s.sendAt}>{mounted ? format(new Date(s.sendAt), "dd/MM/yyyy HH:mm:ss") : ""}</time>
                </td>
                <td>{t(`agent.schedules.statuses.${s.status}`)}</td>
                <td className="col-actions">
                  <button type="button" className="button small" onClick={() => setEditing(s)} aria-label={t("agent.schedules.editFor", { id: s.id })}>
                    {t("agent.common.edit")}
                  </button>
                  <button type="button" className="button small danger" onClick={() => setDeleting(s)} aria-label={t("agent.schedules.deleteFor", { id: s.id })}>
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
      {editing && <ScheduleModal value={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={(s) => apply(editing === "new" ? "create" : "update", s, s.id)} />}
      {deleting && <Confirm title={t("agent.schedules.deleteTitle")} text={t("agent.schedules.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </div>
  );
}

const LOCAL_INPUT = "yyyy-MM-dd'T'HH:mm";

function ScheduleModal({ value, onClose, onSaved }: { value: Schedule | null; onClose: () => void; onSaved: (s: Schedule) => void }) {
  const t = useT();
  const [contact, setContact] = useState<{ id: number; name: string } | null>(value?.contact ?? null);
  const [body, setBody] = useState(value?.body ?? "");
  const [sendAt, setSendAt] = useState(format(value ? new Date(value.sendAt) : addHours(new Date(), 1), LOCAL_INPUT));
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: string; text: string } | null>(null);
  const sent = !!value?.sentAt;

  async function save() {
    setBusy(true);
    setFieldError(null);
    try {
      // The datetime-local value is the browser's wall clock: send it as an absolute instant.
      const payload = { contactId: contact!.id, body, sendAt: new Date(sendAt).toISOString() };
      const saved = await api<Schedule>(value ? `/schedules/${value.id}` : "/schedules", { method: value ? "PUT" : "POST", body: payload });
      toast("success", t("agent.schedules.saved"));
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

  const title = value ? `${t("agent.schedules.edit")} — ${t(`agent.schedules.statuses.${value.status}`)}` : t("agent.schedules.add");
  return (
    <Modal title={title} onClose={onClose} onSubmit={save} busy={busy} okDisabled={sent || !contact || !sendAt}>
      {sent && <p className="notice">{t("agent.schedules.alreadySent")}</p>}
      <ContactPicker id="schedule-contact" label={t("agent.schedules.contact")} value={contact} onPick={setContact} />
      <div className="field">
        <label htmlFor="schedule-body">{t("agent.schedules.body")}</label>
        <textarea id="schedule-body" rows={5} value={body} maxLength={30000} disabled={sent} aria-invalid={fieldError?.field === "body" || undefined} onChange={(e) => setBody(e.target.value)} />
        {fieldError?.field === "body" && <p className="field-error">{fieldError.text}</p>}
      </div>
      <div className="field">
        <label htmlFor="schedule-send-at">{t("agent.schedules.sendAt")}</label>
        <input id="schedule-send-at" type="datetime-local" value={sendAt} disabled={sent} aria-invalid={fieldError?.field === "sendAt" || undefined} onChange={(e) => setSendAt(e.target.value)} />
        {fieldError?.field === "sendAt" && <p className="field-error">{fieldError.text}</p>}
      </div>
    </Modal>
  );
}
