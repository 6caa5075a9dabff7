import { useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";
import type { User } from "./types";
import { Confirm, upsert, useLive } from "./ui";
import { usePagedList } from "./use-paged";
import { UserModal } from "./UserModal";

/** /users: searchable, infinitely scrolling user table with the user modal and delete confirmation. */
export default function Users() {
  const t = useT();
  const list = usePagedList<User>("/users", "users");
  const [editing, setEditing] = useState<User | "new" | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  useLive(["user"], (payload) => {
    if (payload.action === "delete") list.setRows((r) => r.filter((u) => u.id !== payload.userId));
    else if (payload.user) list.setRows((r) => (payload.action === "create" && !r.some((u) => u.id === payload.user.id) ? [payload.user, ...r] : r.map((u) => (u.id === payload.user.id ? payload.user : u))));
  });

  async function remove(u: User) {
    setDeleting(null);
    try {
      await api(`/users/${u.id}`, { method: "DELETE" });
      list.setRows((r) => r.filter((x) => x.id !== u.id));
      toast("success", t("admin.users.deleted"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <section className="page admin-page">
      <div className="admin-header">
        <h1 className="page-title">{t("admin.users.title")}</h1>
        <div className="admin-toolbar">
          <input className="search" type="search" aria-label={t("admin.common.search")} placeholder={t("admin.common.search")} value={list.search} maxLength={100} onChange={(e) => list.setSearch(e.target.value)} />
          <button type="button" className="button primary" onClick={() => setEditing("new")}>
            {t("admin.users.add")}
          </button>
        </div>
      </div>
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
                  <div className="admin-row-actions">
                    <button type="button" className="button small" onClick={() => setEditing(u)} aria-label={t("admin.common.editNamed", { name: u.name })}>
                      {t("admin.common.edit")}
                    </button>
                    <button type="button" className="button small danger" onClick={() => setDeleting(u)} aria-label={t("admin.common.deleteNamed", { name: u.name })}>
                      {t("admin.common.delete")}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
            {!list.loading && list.rows.length === 0 && (
              <tr>
                <td colSpan={5} className="list-empty">
                  {list.failed ? t("errors.generic") : t("admin.common.empty")}
                </td>
              </tr>
            )}
            {list.loading && (
              <tr>
                <td colSpan={5} className="list-empty">
                  {t("app.loading")}
                </td>
              </tr>
            )}
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
      {deleting && <Confirm title={t("admin.users.deleteTitle", { name: deleting.name })} text={t("admin.users.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </section>
  );
}
