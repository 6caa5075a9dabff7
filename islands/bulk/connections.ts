import { useEffect, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

export interface ConnectionOption {
  id: number;
  name: string;
  number?: string | null;
  isDefault: boolean;
}

/** The connections for a bulk screen's picker. */
export function useConnections(): ConnectionOption[] {
  const t = useT();
  const [rows, setRows] = useState<ConnectionOption[]>([]);
  useEffect(() => {
    api<ConnectionOption[]>("/whatsapp/")
      .then(setRows)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t]);
  return rows;
}
