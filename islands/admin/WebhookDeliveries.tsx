import { format } from "date-fns";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { dateTimeLabel } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { AdminHeader, ListStatus } from "../lib/list-ui";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";

/** One delivery of an event to an endpoint, with every attempt's answer. */
export interface Delivery {
  id: number;
  endpointId: number;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  createdAt: string;
  tries: { attempt: number; statusCode: number | null; error: string | null; at: number }[];
}

/** The latest deliveries with each attempt's answer; reloaded on demand. `initial` is the page the server loaded. */
export function DeliveryLog({ initial }: { initial?: Delivery[] | null }) {
  const t = useT();
  // Times are in the browser's locale and zone, so the server render leaves them empty.
  const mounted = useMounted();
  const [rows, setRows] = useState<Delivery[] | null>(initial ?? null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(() => {
    setFailed(false);
    api<{ deliveries: Delivery[] }>("/webhooks/deliveries")
      .then((page) => setRows(page.deliveries))
      .catch((error) => {
        setFailed(true);
        toast("error", errorText(t, error));
      });
  }, [t]);
  const preloaded = useRef(!!initial);
  useEffect(() => {
    if (preloaded.current) preloaded.current = false;
    else load();
  }, [load]);

  const answer = (code: number | null, error: string | null) => (code != null ? String(code) : (error ?? "—"));
  return (
    <div className="admin-card webhook-log">
      <AdminHeader title={t("admin.webhooks.log")}>
        <button type="button" className="button" onClick={load}>
          {t("admin.webhooks.reload")}
        </button>
      </AdminHeader>
      <table className="admin-table" data-testid="webhook-log">
        <thead>
          <tr>
            <th>{t("admin.webhooks.when")}</th>
            <th>{t("admin.webhooks.event")}</th>
            <th>{t("admin.webhooks.status")}</th>
            <th>{t("admin.webhooks.attempts")}</th>
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((d) => (
            <tr key={d.id} data-delivery-id={d.id} data-status={d.status}>
              <td data-label={t("admin.webhooks.when")}>{mounted ? dateTimeLabel(d.createdAt) : ""}</td>
              <td data-label={t("admin.webhooks.event")}>
                {t(`admin.webhooks.eventNames.${d.event.replace(".", "_")}`)}
              </td>
              <td data-label={t("admin.webhooks.status")}>
                {t(`admin.webhooks.statuses.${d.status}`)}
                {mounted &&
                  d.nextAttemptAt != null &&
                  ` · ${t("admin.webhooks.nextAt", { time: format(new Date(d.nextAttemptAt), "HH:mm:ss") })}`}
              </td>
              <td data-label={t("admin.webhooks.attempts")}>
                <ol className="webhook-tries">
                  {d.tries.map((a) => (
                    <li key={a.attempt}>
                      {mounted ? format(new Date(a.at), "HH:mm:ss") : ""} → {answer(a.statusCode, a.error)}
                    </li>
                  ))}
                </ol>
              </td>
            </tr>
          ))}
          <ListStatus
            variant="admin"
            colSpan={4}
            loading={rows === null && !failed}
            empty={rows?.length === 0}
            failed={failed}
          />
        </tbody>
      </table>
    </div>
  );
}
