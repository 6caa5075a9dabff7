import type { MutableRefObject } from "react";
import type { Message, Ticket } from "../../src/shared/contracts";
import { api, callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { openTicket, showTicketInList } from "../lib/ticket-nav";
import { toast } from "../lib/toast";

/** How long a resolve can be undone from its toast. */
const UNDO_MS = 5000;

/** What the chat header and bubbles do to the ticket: accept, return, resolve, reopen, delete, retry, call. */
export function useTicketActions({
  ticketId,
  userId,
  ticket,
  setTicket,
  leaving,
}: {
  ticketId: number;
  userId: number;
  ticket: Ticket | null;
  setTicket: (update: (prev: Ticket | null) => Ticket | null) => void;
  leaving: MutableRefObject<boolean>;
}) {
  const t = useT();

  async function setStatus(status: Ticket["status"]) {
    const before = ticket;
    try {
      const updated = await callApi("PUT /tickets/:id", {
        params: { id: ticketId },
        body: {
          status,
          userId: status === "pending" ? null : status === "closed" ? (ticket?.userId ?? userId) : userId,
        },
      });
      if (status === "open") {
        setTicket((prev) => ({ ...prev!, ...updated }));
        showTicketInList(updated);
        return;
      }
      openTicket(null);
      if (status === "closed" && before) offerUndoResolve(before);
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  /** For a few seconds after a resolve, Undo puts the ticket back as it was (status and agent) and opens it. */
  function offerUndoResolve(before: Ticket) {
    const undo = async () => {
      try {
        const restored = await callApi("PUT /tickets/:id", {
          params: { id: ticketId },
          body: { status: before.status, userId: before.userId },
        });
        showTicketInList(restored);
        openTicket(ticketId);
      } catch (error) {
        toast("error", errorText(t, error));
      }
    };
    toast("success", t("chat.resolvedUndo", { id: ticketId }), {
      action: { label: t("chat.undo"), run: () => void undo() },
      ms: UNDO_MS,
    });
  }

  /** Parks the ticket until `until`: it leaves the lists, so the chat closes. */
  async function snooze(until: Date) {
    try {
      await callApi("POST /tickets/:id/snooze", { params: { id: ticketId }, body: { until: until.toISOString() } });
      openTicket(null);
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function unsnooze() {
    try {
      const updated = await callApi("DELETE /tickets/:id/snooze", { params: { id: ticketId } });
      setTicket((prev) => ({ ...prev!, ...updated }));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function deleteTicket() {
    leaving.current = true;
    try {
      await api(`/tickets/${ticketId}`, { method: "DELETE" });
      toast("success", t("agent.ticket.deleted"));
      openTicket(null);
    } catch (error) {
      leaving.current = false;
      toast("error", errorText(t, error));
    }
  }

  /** Sends a failed message again; its bubble follows through the chat's realtime updates. */
  async function retry(m: Message) {
    try {
      await api(`/messages/${m.id}/retry`, { method: "POST" });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  /**
   * Opens the Wavoip web dialer for the contact in a new window. The server builds its URL (it holds the
   * connection's call token), so the window is opened first and pointed there once the answer comes: a window
   * opened after an await would be blocked as a popup.
   */
  async function startCall() {
    if (!ticket?.contact?.number?.replace(/\D/g, "")) {
      toast("error", t("chat.callFailed"));
      return;
    }
    const popup = window.open("", "wavoip", "width=440,height=640");
    try {
      const { url } = await api<{ url: string }>(`/tickets/${ticketId}/call`);
      if (popup) {
        popup.opener = null;
        popup.location.href = url;
      }
    } catch {
      popup?.close();
      toast("error", t("chat.callFailed"));
    }
  }

  return { setStatus, snooze, unsnooze, deleteTicket, retry, startCall };
}
