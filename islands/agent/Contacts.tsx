import { useCallback, useEffect, useState, type UIEvent } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { on } from "../lib/socket";
import { toast } from "../lib/toast";
import { ContactModal, type Contact } from "./ContactModal";
import { Confirm } from "./Modal";
import { usePagedList } from "./use-paged-list";

const SCROLL_MARGIN_PX = 100;

/** /contacts: searchable, infinitely scrolling table with start-ticket, edit and (admins) delete; import and add. */
export default function Contacts({ userId, canDelete }: { userId: number; canDelete: boolean }) {
  const t = useT();
  const list = usePagedList<Contact>("/contacts", "contacts");
  const [editing, setEditing] = useState<number | "new" | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [busy, setBusy] = useState(false);
  const { apply } = list;

  useEffect(() => on("contact", (p: { action: string; contact?: Contact; contactId?: number }) => apply(p.action, p.contact, p.contactId)), [apply]);

  function onScroll(e: UIEvent<HTMLDivElement>) {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_MARGIN_PX) list.loadMore();
  }

  async function startTicket(c: Contact) {
    setBusy(true);
    try {
      const ticket = await api<{ id: number }>("/tickets", { method: "POST", body: { contactId: c.id, userId, status: "open" } });
      location.assign(`/tickets/${ticket.id}`);
    } catch (error) {
      toast("error", errorText(t, error));
      setBusy(false);
    }
  }

  async function remove(c: Contact) {
    setDeleting(null);
    try {
      await api(`/contacts/${c.id}`, { method: "DELETE" });
      apply("delete", undefined, c.id);
      toast("success", t("agent.contacts.deleted"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function importPhonebook() {
    setBusy(true);
    try {
      await api("/contacts/import", { method: "POST" });
      location.reload();
    } catch (error) {
      toast("error", errorText(t, error));
      setBusy(false);
    }
  }

  const close = useCallback(() => setEditing(null), []);
  return (
    <div className="agent-list">
      <div className="list-toolbar">
        <input className="search" type="search" aria-label={t("agent.contacts.search")} placeholder={t("agent.contacts.search")} value={list.search} maxLength={100} onChange={(e) => list.setSearch(e.target.value)} />
        <button type="button" className="button" disabled={busy} onClick={importPhonebook}>
          {t("agent.contacts.import")}
        </button>
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.contacts.add")}
        </button>
      </div>
      <div className="table-wrap" onScroll={onScroll} aria-busy={list.loading}>
        <table className="table">
          <thead>
            <tr>
              <th className="col-avatar">
                <span className="sr-only">{t("agent.contacts.avatar")}</span>
              </th>
              <th>{t("agent.contacts.name")}</th>
              <th>{t("agent.contacts.number")}</th>
              <th className="col-email">{t("agent.contacts.email")}</th>
              <th className="col-actions">{t("agent.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((c) => (
              <tr key={c.id} data-contact-id={c.id}>
                <td className="col-avatar">
                  <span className="avatar small" aria-hidden="true">
                    {c.profilePicUrl ? <img src={c.profilePicUrl} alt="" /> : (c.name || c.number).slice(0, 1).toUpperCase()}
                  </span>
                </td>
                <td>{c.name}</td>
                <td>{c.number}</td>
                <td className="col-email">{c.email ?? ""}</td>
                <td className="col-actions">
                  <button type="button" className="button small primary" disabled={busy} onClick={() => startTicket(c)} aria-label={t("agent.contacts.startTicketFor", { name: c.name })}>
                    {t("agent.contacts.startTicket")}
                  </button>
                  <button type="button" className="button small" onClick={() => setEditing(c.id)} aria-label={t("agent.contacts.editFor", { name: c.name })}>
                    {t("agent.common.edit")}
                  </button>
                  {canDelete && (
                    <button type="button" className="button small danger" onClick={() => setDeleting(c)} aria-label={t("agent.contacts.deleteFor", { name: c.name })}>
                      {t("agent.common.delete")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!list.loading && list.rows.length === 0 && <p className="list-empty">{t("agent.common.empty")}</p>}
        {list.loading && <p className="list-empty">{t("app.loading")}</p>}
      </div>
      {editing != null && <ContactModal contactId={editing === "new" ? null : editing} onClose={close} onSaved={(c) => apply(editing === "new" ? "create" : "update", c, c.id)} />}
      {deleting && <Confirm title={t("agent.contacts.deleteTitle", { name: deleting.name })} text={t("agent.contacts.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </div>
  );
}
