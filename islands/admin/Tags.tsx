import { useState } from "react";
import { RULES } from "../../src/shared/validation";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";
import type { Tag } from "./types";
import { Confirm, Input, Modal, ruleError, upsert, useLive } from "./ui";
import { usePagedList } from "./use-paged";

/** /tags: searchable tag table (chip in the tag colour, ticket count); editing and deleting for `tags:edit`. */
export default function Tags({ canEdit }: { canEdit: boolean }) {
  const t = useT();
  const list = usePagedList<Tag>("/tags", "tags");
  const [editing, setEditing] = useState<Tag | "new" | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);

  useLive(["tag"], (payload) => {
    if (payload.action === "delete") list.setRows((r) => r.filter((x) => x.id !== payload.tagId));
    else if (payload.tag) list.setRows((r) => (r.some((x) => x.id === payload.tag.id) ? r.map((x) => (x.id === payload.tag.id ? { ...x, ...payload.tag } : x)) : [...r, payload.tag]));
  });

  async function remove(tag: Tag) {
    setDeleting(null);
    try {
      await api(`/tags/${tag.id}`, { method: "DELETE" });
      list.setRows((r) => r.filter((x) => x.id !== tag.id));
      toast("success", t("admin.tags.deleted"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <section className="page admin-page">
      <div className="admin-header">
        <h1 className="page-title">{t("admin.tags.title")}</h1>
        <div className="admin-toolbar">
          <input className="search" type="search" aria-label={t("admin.common.search")} placeholder={t("admin.common.search")} value={list.search} maxLength={100} onChange={(e) => list.setSearch(e.target.value)} />
          <button type="button" className="button primary" onClick={() => setEditing("new")}>
            {t("admin.tags.add")}
          </button>
        </div>
      </div>
      <div className="admin-table-wrap scroll" onScroll={list.onScroll}>
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("admin.common.name")}</th>
              <th>{t("admin.tags.tickets")}</th>
              {canEdit && <th>{t("admin.common.actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {list.rows.map((tag) => (
              <tr key={tag.id} data-tag-id={tag.id}>
                <td>
                  <span className="chip admin-tag" style={{ background: tag.color }}>
                    {tag.name}
                  </span>
                </td>
                <td>{tag.ticketsCount ?? 0}</td>
                {canEdit && (
                  <td>
                    <div className="admin-row-actions">
                      <button type="button" className="button small" onClick={() => setEditing(tag)} aria-label={t("admin.common.editNamed", { name: tag.name })}>
                        {t("admin.common.edit")}
                      </button>
                      <button type="button" className="button small danger" onClick={() => setDeleting(tag)} aria-label={t("admin.common.deleteNamed", { name: tag.name })}>
                        {t("admin.common.delete")}
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
            {!list.loading && list.rows.length === 0 && (
              <tr>
                <td colSpan={3} className="list-empty">
                  {list.failed ? t("errors.generic") : t("admin.common.empty")}
                </td>
              </tr>
            )}
            {list.loading && (
              <tr>
                <td colSpan={3} className="list-empty">
                  {t("app.loading")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {editing && (
        <TagModal
          tag={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(tag) => {
            list.setRows((r) => upsert(r, tag));
            setEditing(null);
          }}
        />
      )}
      {deleting && <Confirm title={t("admin.tags.deleteTitle", { name: deleting.name })} text={t("admin.tags.deleteText")} onClose={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </section>
  );
}

function TagModal({ tag, onClose, onSaved }: { tag: Tag | null; onClose: () => void; onSaved: (tag: Tag) => void }) {
  const t = useT();
  const [form, setForm] = useState({ name: tag?.name ?? "", color: tag?.color ?? "#1f7a5c" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    const found = ruleError(t, RULES.tagName, form.name);
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      const saved = await api<Tag>(tag ? `/tags/${tag.id}` : "/tags", { method: tag ? "PUT" : "POST", body: form });
      toast("success", t("admin.tags.saved"));
      onSaved(saved);
    } catch (error) {
      toast("error", errorText(t, error));
      setBusy(false);
    }
  }

  const colorValid = /^#[0-9a-f]{6}$/i.test(form.color);
  return (
    <Modal title={t(tag ? "admin.tags.editTitle" : "admin.tags.addTitle")} onClose={onClose} onSubmit={save} busy={busy}>
      <Input label={t("admin.common.name")} value={form.name} onChange={(name) => setForm({ ...form, name })} error={error} maxLength={50} />
      <div className="admin-color">
        <Input label={t("admin.common.color")} value={form.color} onChange={(color) => setForm({ ...form, color })} maxLength={9} />
        <input type="color" aria-label={t("admin.common.pickColor")} value={colorValid ? form.color : "#000000"} onChange={(e) => setForm({ ...form, color: e.target.value })} />
      </div>
    </Modal>
  );
}
