import { useEffect, useState } from "react";
import { ApiError, api } from "../lib/api";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

/** /ticketfind/:phone: looks the ticket up by phone and redirects to its chat, else says why. */
export default function TicketFind({ phone }: { phone: string }) {
  const t = useT();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api<{ ticketId: number }>(`/ticketfind/${encodeURIComponent(phone)}`)
      .then((r) => location.replace(`/tickets/${r.ticketId}`))
      .catch((error) => {
        const text =
          error instanceof ApiError && error.status === 404
            ? t("agent.ticketFind.notFound")
            : t("agent.ticketFind.error");
        setFailure(text);
        toast("error", text);
      });
  }, [phone, t]);
  return (
    <section className="empty-state" aria-live="polite">
      <p>{failure ?? t("agent.ticketFind.redirecting", { phone })}</p>
      {failure && <a href="/tickets">{t("drawer.tickets")}</a>}
    </section>
  );
}
