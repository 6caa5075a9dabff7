import { useState } from "react";
import { useRowDelete } from "../lib/crud";
import { useT } from "../lib/i18n-context";
import { AdminHeader, ListStatus, RowActions, SearchBox } from "../lib/list-ui";
import { upsert, useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";
import { UserModal } from "./UserModal";
import type { User } from "../../src/shared/contracts";

/** /users: searchable, infinitely scrolling user table with the user modal and delete confirmation. */
export default function Users({ initial }: { initial?: FirstPage<User> | null }) {
  const t = useT();
  const list = usePagedList<User>("/users", "users", { initial });
  const [editing, setEditing] = useState<User | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<User>(
    (u) => `/users/${u.id}`,
    (u) => list.setRows((r) => r.filter((x) => x.id !== u.id)),
    "admin.users.deleted",
  );

  useLive(["user"], (payload) => {
    if (payload.action === "delete") list.setRows((r) => r.filter((u) => u.id !== payload.userId));
    else if (payload.user)
      list.setRows((r) =>
        payload.action === "create" && !r.some((u) => u.id === payload.user.id)
          ? [payload.user, ...r]
          : r.map((u) => (u.id === payload.user.id ? payload.user : u)),
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
      <div className="admin-table-wrap scroll" onScroll={list.onScroll}>
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("admin.common.name")}</th>
              <th>{t("admin.users.email")}</th>
              <th>{t("admin.users.profile")}</th>
              <th>{t("admin.users.connection")}</th>
              <th>{t("admin.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((u) => (
              <tr key={u.id} data-user-id={u.id}>
                <td>{u.name}</td>
                <td className="admin-clip">{u.email}</td>
                <td>{t(`admin.users.profiles.${u.profile}`)}</td>
                <td>{u.whatsapp?.name ?? ""}</td>
                <td>
                  <RowActions
                    variant="admin"
                    onEdit={() => setEditing(u)}
                    onDelete={() => setDeleting(u)}
                    editLabel={t("admin.common.editNamed", { name: u.name })}
                    deleteLabel={t("admin.common.deleteNamed", { name: u.name })}
                  />
                </td>
              </tr>
            ))}
            <ListStatus
              variant="admin"
              colSpan={5}
              loading={list.loading}
              empty={list.rows.length === 0}
              failed={list.failed}
            />
          </tbody>
        </table>
      </div>
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
