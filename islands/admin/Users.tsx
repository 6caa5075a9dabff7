import { useState } from "react";
import { useRowDelete } from "../lib/crud";
import { AvailabilityLabel } from "../lib/availability";
import { useT } from "../lib/i18n-context";
import { ListTable } from "../lib/list-table";
import { AdminHeader, RowActions, SearchBox } from "../lib/list-ui";
import { upsert, useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";
import { UserModal } from "./UserModal";
import type { User } from "../../src/shared/contracts";

/**
 * /users: searchable, infinitely scrolling user table (with each user's availability, live) with the user modal
 * and delete confirmation.
 */
export default function Users({ initial }: { initial?: FirstPage<User> | null }) {
  const t = useT();
  const list = usePagedList<User>("/users", "users", { initial });
  const [editing, setEditing] = useState<User | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<User>(
    (u) => `/users/${u.id}`,
    (u) => list.setRows((r) => r.filter((x) => x.id !== u.id)),
    "admin.users.deleted",
  );

  useLive(["user"], ({ action, user, userId }: { action: string; user?: User; userId?: number }) => {
    if (action === "delete") list.setRows((r) => r.filter((u) => u.id !== userId));
    else if (user)
      list.setRows((r) =>
        action === "create" && !r.some((u) => u.id === user.id)
          ? [user, ...r]
          : r.map((u) => (u.id === user.id ? user : u)),
      );
  });

  return (
    <section className="page admin-page">
      <AdminHeader title={t("admin.users.title")}>
        <SearchBox label={t("admin.common.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("admin.users.add")}
        </button>
      </AdminHeader>
      <ListTable
        variant="admin"
        list={list}
        rowAttributes={(u) => ({ "data-user-id": u.id })}
        columns={[
          { head: t("admin.common.name"), cell: (u) => u.name },
          { head: t("admin.users.email"), cell: (u) => u.email, cellClassName: "admin-clip" },
          { head: t("admin.users.profile"), cell: (u) => t(`admin.users.profiles.${u.profile}`) },
          { head: t("admin.users.availability"), cell: (u) => <AvailabilityLabel availability={u.availability} /> },
          { head: t("admin.users.connection"), cell: (u) => u.whatsapp?.name ?? "" },
          {
            head: t("admin.common.actions"),
            cell: (u) => (
              <RowActions
                variant="admin"
                onEdit={() => setEditing(u)}
                onDelete={() => setDeleting(u)}
                editLabel={t("admin.common.editNamed", { name: u.name })}
                deleteLabel={t("admin.common.deleteNamed", { name: u.name })}
              />
            ),
          },
        ]}
      />
      {editing && (
        <UserModal
          user={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(u) => {
            list.setRows((r) => (r.some((x) => x.id === u.id) ? upsert(r, u) : [u, ...r]));
            setEditing(null);
          }}
        />
      )}
      {deleting && (
        <Confirm
          variant="admin"
          title={t("admin.users.deleteTitle", { name: deleting.name })}
          text={t("admin.users.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </section>
  );
}
