import { useEffect, useState } from "react";
import { api } from "./lib/api";
import { useT } from "./lib/i18n-context";
import { Icon } from "./lib/icons";
import { lastMessageText } from "./lib/last-message";
import { MenuButton } from "./lib/menu-button";
import { join, on } from "./lib/socket";
import { isPlainClick, openTicket } from "./lib/ticket-nav";
import type { SlaTarget, Ticket } from "../src/shared/contracts";

/** A short two-tone chime made with Web Audio (no sound file to ship); silent until the page has had a user gesture. */
function chime() {
  try {
    const Ctx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    if (ctx.state === "suspended") return void ctx.close();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.5);
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.15);
      osc.stop(ctx.currentTime + 0.5);
    }
    setTimeout(() => void ctx.close(), 800);
  } catch {
    // Sound is a nicety: a browser without Web Audio just stays quiet.
  }
}

/**
 * App-bar bell: lists the tickets with unread messages (GET /tickets?withUnreadMessages=true, then live) and
 * raises a desktop notification with a sound for a new contact message — except for the ticket open and
 * visible on screen, another user's ticket, or a group.
 */
export default function NotificationsBell({ userId, isAdmin }: { userId: number; isAdmin: boolean }) {
  const t = useT();
  const [items, setItems] = useState<Ticket[]>([]);
  // Tickets past an SLA target: only admins' sockets hear of them.
  const [breaches, setBreaches] = useState<{ ticket: Ticket; target: SlaTarget }[]>([]);

  useEffect(() => {
    join({ type: "joinNotification" });
    const mine = (tk: Ticket) => {
      if (tk.isGroup) return false;
      const owner = tk.userId ?? tk.user?.id ?? null;
      return owner === null || owner === userId;
    };
    api<{ tickets: Ticket[] }>("/tickets?withUnreadMessages=true")
      .then((res) => setItems(res.tickets.filter((tk) => tk.unreadMessages > 0 && mine(tk))))
      .catch(() => undefined);
    // Admins also find the unresolved tickets that passed a target before this page loaded.
    if (isAdmin)
      api<{ tickets: Ticket[] }>("/tickets?slaBreached=true&showAll=true")
        .then((res) => setBreaches((prev) => [...prev, ...res.tickets.filter(unlisted(prev)).map(asBreach)]))
        .catch(() => undefined);
    const drop = (id: number) => setItems((prev) => prev.filter((x) => x.id !== id));
    const dropBreach = (id: number) => setBreaches((prev) => prev.filter((x) => x.ticket.id !== id));
    const offMsg = on("appMessage", (p) => {
      if (p.action !== "create" || p.message.fromMe || !mine(p.ticket)) return;
      const tk = p.ticket;
      const visible = location.pathname === `/tickets/${tk.id}` && document.visibilityState === "visible";
      if (visible) return;
      setItems((prev) => [tk, ...prev.filter((x) => x.id !== tk.id)]);
      notify(tk, p.contact?.name ?? tk.contact?.name ?? "", p.message.body);
    });
    const offTicket = on("ticket", (p) => {
      if (p.action === "updateUnread") drop(p.ticketId);
      else if (p.action === "update" && (p.ticket.unreadMessages === 0 || !mine(p.ticket))) drop(p.ticket.id);
      if (p.action === "delete") dropBreach(p.ticketId);
      else if (p.action === "update" && p.ticket.status === "closed") dropBreach(p.ticket.id);
    });
    const offBreach = on("slaBreach", (p) => {
      setBreaches((prev) => [p, ...prev.filter((x) => x.ticket.id !== p.ticket.id)]);
      notify(p.ticket, t(`menu.slaBreached.${p.target}`), p.ticket.contact?.name ?? "");
    });
    return () => {
      offMsg();
      offTicket();
      offBreach();
    };
  }, [userId, isAdmin, t]);

  function askPermission() {
    // Asking from a click (a user gesture) is what browsers expect for the permission prompt.
    if (typeof Notification !== "undefined" && Notification.permission === "default")
      void Notification.requestPermission().catch(() => undefined);
  }

  return (
    <MenuButton
      className="bell"
      buttonClassName="icon-button on-dark"
      label={t("menu.notifications")}
      button={
        <>
          <Icon name="bell" />
          {items.length + breaches.length > 0 && <span className="badge">{items.length + breaches.length}</span>}
        </>
      }
      onToggle={askPermission}
      menu={(close) => (
        <>
          {items.length + breaches.length === 0 && <p className="menu-empty">{t("menu.noNotifications")}</p>}
          {breaches.map(({ ticket, target }) => (
            <a
              key={`sla-${ticket.id}`}
              className="menu-row sla-breached"
              href={`/tickets/${ticket.id}`}
              onClick={(e) => {
                setBreaches((prev) => prev.filter((x) => x.ticket.id !== ticket.id));
                if (!isPlainClick(e)) return;
                e.preventDefault();
                close();
                openTicket(ticket.id);
              }}
            >
              <strong>{ticket.contact?.name || ticket.contact?.number || `#${ticket.id}`}</strong>
              <span>{t(`menu.slaBreached.${target}`)}</span>
            </a>
          ))}
          {items.map((i) => (
            <a
              key={i.id}
              className="menu-row"
              href={`/tickets/${i.id}`}
              onClick={(e) => {
                if (!isPlainClick(e)) return;
                e.preventDefault();
                close();
                openTicket(i.id);
              }}
            >
              <strong>{i.contact?.name || i.contact?.number || `#${i.id}`}</strong>
              <span>{lastMessageText(t, i.lastMessage)}</span>
            </a>
          ))}
        </>
      )}
    />
  );
}

const unlisted = (listed: { ticket: Ticket }[]) => (ticket: Ticket) => !listed.some((x) => x.ticket.id === ticket.id);

/** A ticket the list says is past a target, as the bell shows a breach: the resolution target when both passed. */
const asBreach = (ticket: Ticket) => ({
  ticket,
  target: ticket.sla.breachedTargets.includes("resolution") ? ("resolution" as const) : ("first_response" as const),
});

function notify(ticket: Ticket, title: string, body: string) {
  chime();
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  try {
    const n = new Notification(title || `#${ticket.id}`, {
      body,
      tag: `ticket-${ticket.id}`,
      icon: ticket.contact?.profilePicUrl ?? undefined,
    });
    n.onclick = () => {
      window.focus();
      openTicket(ticket.id);
    };
  } catch {
    // Some browsers (Android Chrome) only allow notifications from a service worker; the bell still lists the ticket.
  }
}
