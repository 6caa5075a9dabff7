import { addHours, format } from "date-fns";
import { useState } from "react";
import { can } from "../../src/shared/permissions";
import { api } from "../lib/api";
import { getBoot } from "../lib/boot";
import { useFormSave, useRowDelete } from "../lib/crud";
import { useT } from "../lib/i18n-context";
import { ListStatus, RowActions, SearchBox } from "../lib/list-ui";
import { useLive } from "../lib/live";
import { Confirm, Modal } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";
import { usePagedList } from "../lib/use-paged-list";
import { ContactPicker } from "./ContactPicker";

const BODY_PREVIEW = 25;

export interface Schedule {
  id: number;
  body: string;
  contactId: number;
  sendAt: string;
  sentAt: string | null;
  status: "PENDENTE" | "AGENDADA" | "ENVIADA" | "ERRO";
  contact: { id: number; name: string; number: string | null } | null;
  userId: number | null;
}

/** Product §2: the body cut at 25 characters with an ellipsis. */
export function truncateBody(body: string): string {
  return body.length > BODY_PREVIEW ? `${body.slice(0, BODY_PREVIEW)}...` : body;
}

/**
 * /schedules: search, infinite scroll, contact / body / send time / status columns, add/edit modal and delete.
 * A schedule is edited and deleted by its creator, or with `schedules:editAny`.
 */
export default function Schedules() {
  const t = useT();
  const mounted = useMounted();
  const me = mounted ? getBoot()?.user : undefined;
  const mayChange = (s: Schedule) => !!me && (s.userId === me.id || can(me.profile, "schedules:editAny"));
  const list = usePagedList<Schedule>("/schedules", "schedules", { toastErrors: true });
  const [editing, setEditing] = useState<Schedule | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<Schedule>((s) => `/schedules/${s.id}`, (s) => apply("delete", undefined, s.id), "agent.schedules.deleted");
  const { apply } = list;

  useLive(["schedule"], (p: { action: string; schedule?: Schedule; scheduleId?: number }) => apply(p.action, p.schedule, p.scheduleId));

  return (
    <div className="agent-list">
      <div className="list-toolbar">
        <SearchBox label={t("agent.schedules.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.schedules.add")}
        </button>
      </div>
      <div className="table-wrap" onScroll={list.onScroll} aria-busy={list.loading}>
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
                  {mayChange(s) && <RowActions onEdit={() => setEditing(s)} onDelete={() => setDeleting(s)} editLabel={t("agent.schedules.editFor", { id: s.id })} deleteLabel={t("agent.schedules.deleteFor", { id: s.id })} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListStatus loading={list.loading} empty={list.rows.length === 0} />
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
  const { busy, fieldError, run } = useFormSave();
  const sent = !!value?.sentAt;

  function save() {
    return run(async () => {
      // The datetime-local value is the browser's wall clock: send it as an absolute instant.
      const payload = { contactId: contact!.id, body, sendAt: new Date(sendAt).toISOString() };
      const saved = await api<Schedule>(value ? `/schedules/${value.id}` : "/schedules", { method: value ? "PUT" : "POST", body: payload });
      toast("success", t("agent.schedules.saved"));
      onSaved(saved);
      onClose();
    });
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
