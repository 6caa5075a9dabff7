import { format } from "date-fns";
import { useState } from "react";
import { can } from "../../src/shared/permissions";
import { getBoot } from "../lib/boot";
import { useRowDelete } from "../lib/crud";
import { useT } from "../lib/i18n-context";
import { ListTable } from "../lib/list-table";
import { RowActions, SearchBox } from "../lib/list-ui";
import { useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";
import { type Schedule, ScheduleModal } from "./ScheduleModal";

export type { Schedule };

const BODY_PREVIEW = 25;

/** The body cut at 25 characters with an ellipsis. */
export function truncateBody(body: string): string {
  return body.length > BODY_PREVIEW ? `${body.slice(0, BODY_PREVIEW)}...` : body;
}

/**
 * /schedules: search, infinite scroll, contact / body / send time / status columns, add/edit modal and delete.
 * A schedule is edited and deleted by its creator, or with `schedules:editAny`.
 */
export default function Schedules({ initial }: { initial?: FirstPage<Schedule> | null }) {
  const t = useT();
  const mounted = useMounted();
  const me = mounted ? getBoot()?.user : undefined;
  const mayChange = (s: Schedule) => !!me && (s.userId === me.id || can(me.profile, "schedules:editAny"));
  const list = usePagedList<Schedule>("/schedules", "schedules", { toastErrors: true, initial });
  const [editing, setEditing] = useState<Schedule | "new" | null>(null);
  const { deleting, setDeleting, remove } = useRowDelete<Schedule>(
    (s) => `/schedules/${s.id}`,
    (s) => apply("delete", undefined, s.id),
    "agent.schedules.deleted",
  );
  const { apply } = list;

  useLive(["schedule"], (p: { action: string; schedule?: Schedule; scheduleId?: number }) =>
    apply(p.action, p.schedule, p.scheduleId),
  );

  return (
    <div className="agent-list">
      <div className="list-toolbar">
        <SearchBox label={t("agent.schedules.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("agent.schedules.add")}
        </button>
      </div>
      <ListTable
        list={list}
        columns={[
          { head: t("agent.schedules.contact"), cell: (s) => s.contact?.name ?? "" },
          { head: t("agent.schedules.body"), cell: (s) => truncateBody(s.body), title: (s) => s.body },
          {
            head: t("agent.schedules.sendAt"),
            cell: (s) => (
              <time dateTime={s.sendAt}>{mounted ? format(new Date(s.sendAt), "dd/MM/yyyy HH:mm:ss") : ""}</time>
            ),
          },
          {
            head: t("agent.schedules.status"),
            cell: (s) => t(`agent.schedules.statuses.${s.status}`),
            title: (s) =>
              s.status === "ERRO" && s.lastError
                ? t(`errors.${s.lastError}`, { defaultValue: s.lastError })
                : undefined,
          },
          {
            head: t("agent.common.actions"),
            className: "col-actions",
            cell: (s) =>
              mayChange(s) && (
                <RowActions
                  onEdit={() => setEditing(s)}
                  onDelete={() => setDeleting(s)}
                  editLabel={t("agent.schedules.editFor", { id: s.id })}
                  deleteLabel={t("agent.schedules.deleteFor", { id: s.id })}
                />
              ),
          },
        ]}
      />
      {editing && (
        <ScheduleModal
          value={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(s) => apply(editing === "new" ? "create" : "update", s, s.id)}
        />
      )}
      {deleting && (
        <Confirm
          title={t("agent.schedules.deleteTitle")}
          text={t("agent.schedules.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </div>
  );
}
