import { useState } from "react";
import { can } from "../../src/shared/permissions";
import { FORM_RULES } from "../../src/shared/validation";
import type { NewQuickAnswer } from "../../src/shared/contracts";
import { callApi } from "../lib/api";
import { getBoot } from "../lib/boot";
import { useFormSave, useRowDelete } from "../lib/crud";
import { useFieldChecks } from "../lib/field-checks";
import { useT } from "../lib/i18n-context";
import { ListTable } from "../lib/list-table";
import { RowActions, SearchBox } from "../lib/list-ui";
import { useLive } from "../lib/live";
import { Confirm, Modal } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";
import type { QuickAnswer } from "./QuickAnswerPicker";

/**
 * /quickAnswers: searchable, infinitely scrolling table (shortcut, message, actions) with an add/edit modal.
 * Everyone adds; editing and deleting are for `quick-answers:edit` (known after mount, from the boot data).
 */
export default function QuickAnswers({ initial }: { initial?: FirstPage<QuickAnswer> | null }) {
  const t = useT();
  const mounted = useMounted();
  const canEdit = mounted && can(getBoot()?.user?.profile, "quick-answers:edit");
  const list = usePagedList<QuickAnswer>("/quickAnswers", "quickAnswers", { toastErrors: true, initial });
  const [editing, setEditing] = useState<QuickAnswer | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<QuickAnswer>(
    (q) => `/quickAnswers/${q.id}`,
    (q) => apply("delete", undefined, q.id),
    "agent.quickAnswers.deleted",
  );
  const { apply } = list;

  useLive(["quickAnswer"], (p: { action: string; quickAnswer?: QuickAnswer; quickAnswerId?: number }) =>
    apply(p.action, p.quickAnswer, p.quickAnswerId),
  );

  return (
    <div className="agent-list">
      <div className="list-toolbar">
        <SearchBox label={t("agent.quickAnswers.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.quickAnswers.add")}
        </button>
      </div>
      <ListTable
        list={list}
        columns={[
          { head: t("agent.quickAnswers.shortcut"), cell: (q) => `/${q.shortcut}` },
          { head: t("agent.quickAnswers.message"), cell: (q) => q.message, cellClassName: "cell-text" },
          {
            head: t("agent.common.actions"),
            className: "col-actions",
            cell: (q) =>
              canEdit && (
                <RowActions
                  onEdit={() => setEditing(q)}
                  onDelete={() => setDeleting(q)}
                  editLabel={t("agent.quickAnswers.editFor", { shortcut: q.shortcut })}
                  deleteLabel={t("agent.quickAnswers.deleteFor", { shortcut: q.shortcut })}
                />
              ),
          },
        ]}
      />
      {editing && (
        <QuickAnswerModal
          value={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(q) => apply(editing === "new" ? "create" : "update", q, q.id)}
        />
      )}
      {deleting && (
        <Confirm
          title={t("agent.quickAnswers.deleteTitle", { shortcut: deleting.shortcut })}
          text={t("agent.quickAnswers.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </div>
  );
}

function QuickAnswerModal({
  value,
  onClose,
  onSaved,
}: {
  value: QuickAnswer | null;
  onClose: () => void;
  onSaved: (q: QuickAnswer) => void;
}) {
  const t = useT();
  const [shortcut, setShortcut] = useState(value?.shortcut ?? "");
  const [message, setMessage] = useState(value?.message ?? "");
  const { busy, fieldError, run } = useFormSave(false, undefined, ["shortcut", "message"]);
  const checks = useFieldChecks(FORM_RULES.quickAnswer, { shortcut, message });
  const shortcutError = checks.error("shortcut", fieldError);
  const messageError = checks.error("message", fieldError);

  function save() {
    if (!checks.checkAll()) return;
    return run(async () => {
      const body: NewQuickAnswer = { shortcut, message };
      const saved = value
        ? await callApi("PUT /quickAnswers/:id", { params: { id: value.id }, body })
        : await callApi("POST /quickAnswers", { body });
      toast("success", t("agent.quickAnswers.saved"));
      onSaved(saved);
      onClose();
    });
  }

  return (
    <Modal
      title={value ? t("agent.quickAnswers.edit") : t("agent.quickAnswers.add")}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
    >
      <div className="field">
        <label htmlFor="qa-shortcut">{t("agent.quickAnswers.shortcut")}</label>
        <input
          id="qa-shortcut"
          value={shortcut}
          maxLength={15}
          aria-invalid={!!shortcutError || undefined}
          onChange={(e) => {
            setShortcut(e.target.value);
            checks.touch("shortcut");
          }}
          onBlur={() => checks.touch("shortcut")}
        />
        {shortcutError && <p className="field-error">{shortcutError}</p>}
      </div>
      <div className="field">
        <label htmlFor="qa-message">{t("agent.quickAnswers.message")}</label>
        <textarea
          id="qa-message"
          rows={5}
          value={message}
          maxLength={30000}
          aria-invalid={!!messageError || undefined}
          onChange={(e) => {
            setMessage(e.target.value);
            checks.touch("message");
          }}
          onBlur={() => checks.touch("message")}
        />
        {messageError && <p className="field-error">{messageError}</p>}
      </div>
    </Modal>
  );
}
