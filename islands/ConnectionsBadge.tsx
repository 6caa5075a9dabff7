import { useEffect, useState } from "react";
import { api } from "./lib/api";
import { useT } from "./lib/i18n-context";
import { on } from "./lib/socket";
import { WARNING_STATUSES } from "../src/shared/contracts/connections";
const SETTLE_MS = 2000;

/** The warning dot on the Connections drawer entry, re-evaluated 2 s after any connection change. */
export default function ConnectionsBadge({ initial }: { initial: boolean }) {
  const t = useT();
  const [warn, setWarn] = useState(initial);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        try {
          const rows = await api<{ status: string }[]>("/whatsapp");
          setWarn(rows.some((r) => WARNING_STATUSES.includes(r.status)));
        } catch {
          // Keep the last known state; the next change re-evaluates.
        }
      }, SETTLE_MS);
    };
    const offA = on("whatsappSession", schedule);
    const offB = on("whatsapp", schedule);
    return () => {
      clearTimeout(timer);
      offA();
      offB();
    };
  }, []);
  return warn ? (
    <span
      className="warn-dot"
      role="img"
      aria-label={t("drawer.connectionWarning")}
      title={t("drawer.connectionWarning")}
    />
  ) : null;
}
