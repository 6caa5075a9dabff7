import { format } from "date-fns";
import { useEffect, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { AdminHeader, ListStatus, RowActions } from "../lib/list-ui";
import { upsert, useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";
import { ConnectionModal } from "./ConnectionModal";
import { QrDialog } from "./QrDialog";
import type { Connection } from "../../src/shared/contracts";

/** The page reloads this long after "Restart service". */
const RESTART_RELOAD_MS = 12_000;

/** The saved row from an HTTP answer, unless a socket event already brought a newer state (the session starts at once). */
function keepNewer(rows: Connection[], row: Connection): Connection[] {
  const current = rows.find((c) => c.id === row.id);
  return current && new Date(current.updatedAt) >= new Date(row.updatedAt)
    ? rows.map((c) => (c.id === row.id ? { ...row, ...pickSession(current) } : c))
    : upsert(rows, row);
}

/** A `whatsapp` event (a connection saved or deleted) or a `whatsappSession` one (its session's state changed). */
interface ConnectionEvent {
  action?: string;
  whatsapp?: Connection;
  whatsappId?: number;
  session?: Pick<Connection, "id" | "status" | "statusReason" | "qrcode" | "updatedAt">;
}

const pickSession = ({ status, statusReason, qrcode, updatedAt }: Connection) => ({
  status,
  statusReason,
  qrcode,
  updatedAt,
});

/** /connections: the connection table with per-status session actions, the connection modal and the QR dialog. */
export default function Connections({ sandbox, initial }: { sandbox: boolean; initial?: Connection[] | null }) {
  const t = useT();
  const mounted = useMounted();
  const [rows, setRows] = useState<Connection[] | null>(initial ?? null);
  const [editing, setEditing] = useState<Connection | "new" | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [qrId, setQrId] = useState<number | null>(null);
  const [restarting, setRestarting] = useState(false);
  const [confirmingRestart, setConfirmingRestart] = useState(false);

  useEffect(() => {
    if (initial) return;
    api<Connection[]>("/whatsapp")
      .then(setRows)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t, initial]);

  useLive(["whatsapp", "whatsappSession"], (payload: ConnectionEvent, event) => {
    const { action, whatsapp, whatsappId, session } = payload;
    if (event === "whatsapp" && action === "delete") setRows((r) => r?.filter((c) => c.id !== whatsappId) ?? null);
    else if (event === "whatsapp" && whatsapp) setRows((r) => r && upsert(r, whatsapp));
    else if (event === "whatsappSession" && session)
      setRows((r) => r?.map((c) => (c.id === session.id ? { ...c, ...session } : c)) ?? null);
  });

  async function run(action: () => Promise<unknown>) {
    try {
      await action();
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function restart() {
    setConfirmingRestart(false);
    setRestarting(true);
    try {
      await api("/system/restart", { method: "POST" });
      toast("info", t("admin.connections.restarting"));
      setTimeout(() => location.reload(), RESTART_RELOAD_MS);
    } catch (error) {
      toast("error", errorText(t, error));
      setRestarting(false);
    }
  }

  async function remove(c: Connection) {
    setDeleting(null);
    await run(async () => {
      await api(`/whatsapp/${c.id}`, { method: "DELETE" });
      setRows((r) => r?.filter((x) => x.id !== c.id) ?? null);
      toast("success", t("admin.connections.deleted"));
    });
  }

  function sessionActions(c: Connection) {
    const session = (method: string) => () => run(() => api(`/whatsappsession/${c.id}`, { method }));
    switch (c.status) {
      case "qrcode":
        return (
          <button type="button" className="button primary small" onClick={() => setQrId(c.id)}>
            {t("admin.connections.qrButton")}
          </button>
        );
      case "OPENING":
        return (
          <button type="button" className="button small" disabled>
            <span className="admin-spinner" aria-hidden="true" /> {t("admin.connections.connecting")}
          </button>
        );
      case "DISCONNECTED":
        return (
          <>
            <button type="button" className="button small" onClick={session("POST")}>
              {t("admin.connections.tryAgain")}
            </button>
            {c.provider !== "cloud" && (
              <button type="button" className="button small" onClick={session("PUT")}>
                {t("admin.connections.newQr")}
              </button>
            )}
          </>
        );
      default:
        return (
          <button type="button" className="button small" onClick={session("DELETE")}>
            {t("admin.connections.disconnect")}
          </button>
        );
    }
  }

  const qrConnection = rows?.find((c) => c.id === qrId) ?? null;
  return (
    <section className="page admin-page">
      <AdminHeader title={t("admin.connections.title")}>
        <button type="button" className="button" onClick={() => setConfirmingRestart(true)} disabled={restarting}>
          {t("admin.connections.restart")}
        </button>
        <button type="button" className="button primary" onClick={() => setEditing("new")}>
          {t("admin.connections.add")}
        </button>
      </AdminHeader>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("admin.common.name")}</th>
              <th>{t("admin.connections.status")}</th>
              <th>{t("admin.connections.session")}</th>
              <th>{t("admin.connections.updatedAt")}</th>
              <th>{t("admin.connections.default")}</th>
              <th>{t("admin.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows?.map((c) => (
              <tr key={c.id} data-connection-id={c.id}>
                <td data-label={t("admin.common.name")}>{c.name}</td>
                <td data-label={t("admin.connections.status")} className="connection-status">
                  {t(`admin.connections.statuses.${c.status}`, { defaultValue: c.status })}
                  {c.status === "DISCONNECTED" && c.statusReason && (
                    <small className="field-note">
                      {t("admin.connections.statusReason", { reason: c.statusReason })}
                    </small>
                  )}
                </td>
                <td data-label={t("admin.connections.session")}>
                  <div className="admin-row-actions">{sessionActions(c)}</div>
                </td>
                <td data-label={t("admin.connections.updatedAt")}>
                  {mounted ? format(new Date(c.updatedAt), "dd/MM/yy HH:mm") : ""}
                </td>
                <td data-label={t("admin.connections.default")}>
                  {c.isDefault && (
                    <span className="admin-default" role="img" aria-label={t("admin.connections.default")}>
                      <Icon name="check" size={20} />
                    </span>
                  )}
                </td>
                <td data-label={t("admin.common.actions")}>
                  <RowActions
                    variant="admin"
                    onEdit={() => setEditing(c)}
                    onDelete={() => setDeleting(c)}
                    editLabel={t("admin.common.editNamed", { name: c.name })}
                    deleteLabel={t("admin.common.deleteNamed", { name: c.name })}
                  />
                </td>
              </tr>
            ))}
            <ListStatus variant="admin" colSpan={6} loading={!rows} empty={rows?.length === 0} />
          </tbody>
        </table>
      </div>
      {editing && (
        <ConnectionModal
          connection={editing === "new" ? null : editing}
          sandbox={sandbox}
          onClose={() => setEditing(null)}
          onSaved={(c) => {
            setRows((r) => r && keepNewer(r, c));
            setEditing(null);
          }}
        />
      )}
      {deleting && (
        <Confirm
          variant="admin"
          title={t("admin.connections.deleteTitle", { name: deleting.name })}
          text={t("admin.connections.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
      {confirmingRestart && (
        <Confirm
          variant="admin"
          title={t("admin.connections.restartTitle")}
          text={t("admin.connections.restartText")}
          onClose={() => setConfirmingRestart(false)}
          onConfirm={() => void restart()}
        />
      )}
      {qrConnection && <QrDialog connection={qrConnection} onClose={() => setQrId(null)} />}
    </section>
  );
}
