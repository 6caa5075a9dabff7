import { useEffect, useState } from "react";
import { useT } from "./lib/i18n-context";
import { Icon } from "./lib/icons";
import { join, on } from "./lib/socket";

interface Unread {
  ticketId: number;
  contact: string;
  body: string;
}

/** App-bar bell: counts incoming contact messages live (joinNotification) and lists them; a row opens the ticket. */
export default function NotificationsBell({ userId }: { userId: number }) {
  const t = useT();
  const [items, setItems] = useState<Unread[]>([]);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    join({ type: "joinNotification" });
    return on("appMessage", (p: { action?: string; message?: { fromMe?: boolean; body?: string }; ticket?: { id: number; userId?: number | null; user?: { id: number } | null; isGroup?: boolean }; contact?: { name?: string } }) => {
      if (p?.action !== "create" || !p.message || p.message.fromMe || !p.ticket || p.ticket.isGroup) return;
      const owner = p.ticket.userId ?? p.ticket.user?.id ?? null;
      if (owner != null && owner !== userId) return;
      if (location.pathname === `/tickets/${p.ticket.id}` && document.visibilityState === "visible") return;
      const item = { ticketId: p.ticket.id, contact: p.contact?.name ?? "", body: p.message.body ?? "" };
      setItems((prev) => [item, ...prev.filter((x) => x.ticketId !== item.ticketId)].slice(0, 20));
    });
  }, [userId]);

  return (
    <div className="bell">
      <button type="button" className="icon-button on-dark" aria-haspopup="true" aria-expanded={open} aria-label={t("menu.notifications")} onClick={() => setOpen(!open)}>
        <Icon name="bell" />
        {items.length > 0 && <span className="badge">{items.length}</span>}
      </button>
      {open && (
        <div className="menu">
          {items.length === 0 && <p className="menu-empty">{t("menu.noNotifications")}</p>}
          {items.map((i) => (
            <a key={i.ticketId} className="menu-row" href={`/tickets/${i.ticketId}`}>
              <strong>{i.contact}</strong>
              <span>{i.body}</span>
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
