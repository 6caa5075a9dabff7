import { useCallback, useState } from "react";
import { api } from "../lib/api";
import { useRowDelete } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { ListTable } from "../lib/list-table";
import { RowActions, SearchBox } from "../lib/list-ui";
import { useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { toast } from "../lib/toast";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";
import { ContactNumber } from "../lib/contact-number";
import { startTicketWith } from "../lib/start-ticket";
import { ContactModal, type Contact } from "./ContactModal";

/** /contacts: searchable, infinitely scrolling table with start-ticket, edit and (admins) delete; import and add. */
export default function Contacts({
  userId,
  canDelete,
  initial,
}: {
  userId: number;
  canDelete: boolean;
  initial?: FirstPage<Contact> | null;
}) {
  const t = useT();
  const list = usePagedList<Contact>("/contacts", "contacts", { toastErrors: true, initial });
  const [editing, setEditing] = useState<number | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<Contact>(
    (c) => `/contacts/${c.id}`,
    (c) => apply("delete", undefined, c.id),
    "agent.contacts.deleted",
  );
  const [busy, setBusy] = useState(false);
  const { apply } = list;

  useLive(["contact"], (p: { action: string; contact?: Contact; contactId?: number }) =>
    apply(p.action, p.contact, p.contactId),
  );

  async function startTicket(c: Contact) {
    setBusy(true);
    // On success the page goes to the ticket, so the buttons stay disabled meanwhile.
    if (!(await startTicketWith(t, c.id, userId))) setBusy(false);
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
        <SearchBox label={t("agent.contacts.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button" disabled={busy} onClick={importPhonebook}>
          {t("agent.contacts.import")}
        </button>
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.contacts.add")}
        </button>
      </div>
      <ListTable
        list={list}
        rowAttributes={(c) => ({ "data-contact-id": c.id })}
        columns={[
          {
            head: <span className="sr-only">{t("agent.contacts.avatar")}</span>,
            className: "col-avatar",
            cell: (c) => (
              <span className="avatar small" aria-hidden="true">
                {c.profilePicUrl ? (
                  <img src={c.profilePicUrl} alt="" />
                ) : (
                  (c.name || c.number || "?").slice(0, 1).toUpperCase()
                )}
              </span>
            ),
          },
          { head: t("agent.contacts.name"), cell: (c) => c.name },
          { head: t("agent.contacts.number"), cell: (c) => <ContactNumber number={c.number} /> },
          { head: t("agent.contacts.email"), className: "col-email", cell: (c) => c.email ?? "" },
          {
            head: t("agent.common.actions"),
            className: "col-actions",
            cell: (c) => (
              <>
                <button
                  type="button"
                  className="button small primary"
                  disabled={busy}
                  onClick={() => startTicket(c)}
                  aria-label={t("agent.contacts.startTicketFor", { name: c.name })}
                >
                  {t("agent.contacts.startTicket")}
                </button>
                <RowActions
                  onEdit={() => setEditing(c.id)}
                  onDelete={canDelete ? () => setDeleting(c) : undefined}
                  editLabel={t("agent.contacts.editFor", { name: c.name })}
                  deleteLabel={t("agent.contacts.deleteFor", { name: c.name })}
                />
              </>
            ),
          },
        ]}
      />
      {editing != null && (
        <ContactModal
          contactId={editing === "new" ? null : editing}
          onClose={close}
          onSaved={(c) => apply(editing === "new" ? "create" : "update", c, c.id)}
        />
      )}
      {deleting && (
        <Confirm
          title={t("agent.contacts.deleteTitle", { name: deleting.name })}
          text={t("agent.contacts.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </div>
  );
}
