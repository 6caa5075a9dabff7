import { useEffect, useState } from "react";
import type { Connection } from "../../src/shared/contracts";
import { api } from "./api";
import { errorText } from "./errors";
import { Select } from "./form";
import { useT } from "./i18n-context";
import { toast } from "./toast";

export type ConnectionOption = Pick<Connection, "id" | "name" | "number" | "isDefault" | "provider">;

/** The connections a picker offers: `initial` when the page route loaded them, else loaded once (null until then). */
function useConnections(initial: ConnectionOption[] | null | undefined): ConnectionOption[] | null {
  const t = useT();
  const [rows, setRows] = useState<ConnectionOption[] | null>(initial ?? null);
  useEffect(() => {
    if (initial) return;
    api<ConnectionOption[]>("/whatsapp/")
      .then(setRows)
      .catch((error) => {
        setRows([]);
        toast("error", errorText(t, error));
      });
  }, [t, initial]);
  return rows;
}

/**
 * The connection select of the bulk screens: "pick one" first, then every connection (but the default one, if
 * asked). Without the default there may be nothing to offer: the picker then says why and where to add one.
 */
export function ConnectionPicker({
  value,
  onChange,
  withoutDefault = false,
  initial,
}: {
  value: string;
  onChange: (id: string) => void;
  withoutDefault?: boolean;
  initial?: ConnectionOption[] | null;
}) {
  const t = useT();
  const loaded = useConnections(initial);
  const connections = (loaded ?? []).filter((c) => !(withoutDefault && c.isDefault));
  return (
    <>
      <Select
        label={t("bulk.common.connection")}
        value={value}
        onChange={onChange}
        options={[
          { value: "", label: t("bulk.common.pick") },
          ...connections.map((c) => ({ value: String(c.id), label: c.name })),
        ]}
      />
      {withoutDefault && loaded && connections.length === 0 && (
        <p className="field-note bulk-no-connection" role="note">
          {t("bulk.common.noneButDefault")} <a href="/connections">{t("bulk.common.addConnection")}</a>
        </p>
      )}
    </>
  );
}
