import { useState } from "react";
import { FORM_RULES } from "../../src/shared/validation";
import { callApi } from "../lib/api";
import { useFormSave, useRowDelete } from "../lib/crud";
import { useFieldChecks } from "../lib/field-checks";
import { ColorField, Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { ListTable } from "../lib/list-table";
import { AdminHeader, RowActions, SearchBox } from "../lib/list-ui";
import { upsert, useLive } from "../lib/live";
import { Confirm, Modal } from "../lib/modal";
import { textColorOn } from "../lib/color-presets";
import { toast } from "../lib/toast";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";
import type { NewTag, Tag } from "../../src/shared/contracts";

/** /tags: searchable tag table (chip in the tag colour, ticket count); editing and deleting for `tags:edit`. */
export default function Tags({ canEdit, initial }: { canEdit: boolean; initial?: FirstPage<Tag> | null }) {
  const t = useT();
  const list = usePagedList<Tag>("/tags", "tags", { initial });
  const [editing, setEditing] = useState<Tag | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<Tag>(
    (tag) => `/tags/${tag.id}`,
    (tag) => list.setRows((r) => r.filter((x) => x.id !== tag.id)),
    "admin.tags.deleted",
  );

  useLive(["tag"], ({ action, tag, tagId }: { action: string; tag?: Tag; tagId?: number }) => {
    if (action === "delete") list.setRows((r) => r.filter((x) => x.id !== tagId));
    else if (tag)
      list.setRows((r) =>
        r.some((x) => x.id === tag.id) ? r.map((x) => (x.id === tag.id ? { ...x, ...tag } : x)) : [...r, tag],
      );
  });

  return (
    <section className="page admin-page">
      <AdminHeader title={t("admin.tags.title")}>
        <SearchBox label={t("admin.common.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("admin.tags.add")}
        </button>
      </AdminHeader>
      <ListTable
        variant="admin"
        list={list}
        rowAttributes={(tag) => ({ "data-tag-id": tag.id })}
        columns={[
          {
            head: t("admin.common.name"),
            cell: (tag) => (
              <span className="chip admin-tag" style={{ background: tag.color, color: textColorOn(tag.color) }}>
                {tag.name}
              </span>
            ),
          },
          { head: t("admin.tags.tickets"), cell: (tag) => tag.ticketsCount ?? 0 },
          canEdit && {
            head: t("admin.common.actions"),
            cell: (tag) => (
              <RowActions
                variant="admin"
                onEdit={() => setEditing(tag)}
                onDelete={() => setDeleting(tag)}
                editLabel={t("admin.common.editNamed", { name: tag.name })}
                deleteLabel={t("admin.common.deleteNamed", { name: tag.name })}
              />
            ),
          },
        ]}
      />
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
      {deleting && (
        <Confirm
          variant="admin"
          title={t("admin.tags.deleteTitle", { name: deleting.name })}
          text={t("admin.tags.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </section>
  );
}

function TagModal({ tag, onClose, onSaved }: { tag: Tag | null; onClose: () => void; onSaved: (tag: Tag) => void }) {
  const t = useT();
  const [form, setForm] = useState<Required<NewTag>>({ name: tag?.name ?? "", color: tag?.color ?? "#1f7a5c" });
  const { busy, fieldError, run } = useFormSave(false, "tag", ["name", "color"]);
  const checks = useFieldChecks(FORM_RULES.tag, form, "tag");
  const edit = (key: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    checks.touch(key);
  };

  async function save() {
    if (!checks.checkAll()) return;
    await run(async () => {
      const saved = tag
        ? await callApi("PUT /tags/:id", { params: { id: tag.id }, body: form })
        : await callApi("POST /tags", { body: form });
      toast("success", t("admin.tags.saved"));
      onSaved(saved);
    });
  }

  return (
    <Modal
      variant="admin"
      title={t(tag ? "admin.tags.editTitle" : "admin.tags.addTitle")}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
    >
      <Input
        label={t("admin.common.name")}
        value={form.name}
        onChange={edit("name")}
        onBlur={() => checks.touch("name")}
        error={checks.error("name", fieldError)}
        maxLength={50}
      />
      <ColorField value={form.color} onChange={edit("color")} error={checks.error("color", fieldError)} />
    </Modal>
  );
}
