import { useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { AdminHeader, ListStatus, SearchBox } from "../lib/list-ui";
import { useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { toast } from "../lib/toast";
import { type FirstPage, usePagedList } from "../lib/use-paged-list";

interface Record_ {
  id: number;
  phone: string;
  message: string;
  status: string;
  whatsappId: number | null;
  whatsapp?: { name: string; number: string | null } | null;
}

/** /ShippingReport: every bulk record with its status, updated live; delete one, or clean them all. */
export default function ShippingReport({ initial }: { initial?: FirstPage<Record_> | null }) {
  const t = useT();
  const list = usePagedList<Record_>("/bulkMessage/report", "messages", { initial });
  const [cleaning, setCleaning] = useState(false);

  useLive(["massMessage"], ({ action, id, record }: { action: string; id?: number; record?: Record_ }) => {
    if (action === "delete") list.setRows((r) => r.filter((x) => x.id !== id));
    else if (record) {
      list.setRows((rows) =>
        rows.some((x) => x.id === record.id)
          ? rows.map((x) => (x.id === record.id ? { ...x, ...record, whatsapp: x.whatsapp } : x))
          : [record, ...rows],
      );
    }
  });

  async function remove(id: number) {
    try {
      await api(`/bulkMessage/d/${id}`, { method: "DELETE" });
      list.setRows((r) => r.filter((x) => x.id !== id));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function clean() {
    setCleaning(false);
    try {
      await api("/bulkMessage/clean", { method: "DELETE" });
      list.setRows((r) => r.filter((x) => x.status === "pending" || x.status === "sending"));
      toast("success", t("bulk.report.cleaned"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <section className="page admin-page">
      <AdminHeader title={t("bulk.report.title")}>
        <SearchBox label={t("admin.common.search")} value={list.search} onChange={list.setSearch} />
        <button type="button" className="button danger" onClick={() => setCleaning(true)}>
          {t("bulk.report.clean")}
        </button>
      </AdminHeader>
      <div className="admin-table-wrap scroll" onScroll={list.onScroll}>
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("bulk.common.connection")}</th>
              <th>{t("bulk.report.phone")}</th>
              <th>{t("bulk.report.message")}</th>
              <th>{t("bulk.report.status")}</th>
              <th>{t("admin.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((r) => (
              <tr key={r.id} data-record-id={r.id} data-status={r.status}>
                <td data-label={t("bulk.common.connection")}>
                  {r.whatsapp ? `${r.whatsapp.name}${r.whatsapp.number ? ` / ${r.whatsapp.number}` : ""}` : ""}
                </td>
                <td data-label={t("bulk.report.phone")}>{r.phone}</td>
                <td data-label={t("bulk.report.message")}>{r.message}</td>
                <td data-label={t("bulk.report.status")}>{t(`bulk.status.${r.status}`, { defaultValue: r.status })}</td>
                <td data-label={t("admin.common.actions")}>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={t("admin.common.deleteNamed", { name: r.phone })}
                    onClick={() => void remove(r.id)}
                  >
                    {t("admin.common.delete")}
                  </button>
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
      {cleaning && (
        <Confirm
          variant="admin"
          title={t("bulk.report.clean")}
          text={t("bulk.report.cleanText")}
          onClose={() => setCleaning(false)}
          onConfirm={() => void clean()}
        />
      )}
    </section>
  );
}
