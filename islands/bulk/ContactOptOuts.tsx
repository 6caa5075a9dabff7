import { useEffect, useState } from "react";
import { can } from "../../src/shared/permissions";
import { api } from "../lib/api";
import { getBoot } from "../lib/boot";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

interface OptOut {
  whatsappId: number;
  whatsappName: string;
}

/**
 * In the contact drawer: the connections this contact opted out of bulk messages on (admins can clear each), or
 * that they receive bulk messages.
 */
export function ContactOptOuts({ contactId }: { contactId: number }) {
  const t = useT();
  const [rows, setRows] = useState<OptOut[] | null>(null);
  const canClear = can(getBoot()?.user?.profile, "bulk:manage");

  useEffect(() => {
    api<OptOut[]>(`/contacts/${contactId}/optOuts`).then(setRows, (error) => toast("error", errorText(t, error)));
  }, [contactId, t]);

  async function clear(whatsappId: number) {
    try {
      await api(`/contacts/${contactId}/optOuts/${whatsappId}`, { method: "DELETE" });
      setRows((r) => r?.filter((x) => x.whatsappId !== whatsappId) ?? null);
      toast("success", t("bulk.optOut.cleared"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  if (!rows) return null;
  if (!rows.length) return <p className="contact-opt-outs">{t("bulk.optOut.none")}</p>;
  return (
    <div className="contact-opt-outs">
      <strong>{t("bulk.optOut.title")}</strong>
      <ul>
        {rows.map((r) => (
          <li key={r.whatsappId} data-opt-out={r.whatsappId}>
            <span>{r.whatsappName}</span>
            {canClear && (
              <button
                type="button"
                className="button small"
                onClick={() => void clear(r.whatsappId)}
                aria-label={t("bulk.optOut.clearNamed", { name: r.whatsappName })}
              >
                {t("bulk.optOut.clear")}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
