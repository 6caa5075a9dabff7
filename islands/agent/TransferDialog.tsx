import { useEffect, useState } from "react";
import { can } from "../../src/shared/permissions";
import { api, callApi, queryString } from "../lib/api";
import { getBoot } from "../lib/boot";
import { AvailabilityLabel } from "../lib/availability";
import { useFormSave } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { useLive } from "../lib/live";
import { Modal } from "../lib/modal";
import { openTicket } from "../lib/ticket-nav";
import { toast } from "../lib/toast";
import type { ListQuery, QueueOption, Ticket, TicketChanges, User } from "../../src/shared/contracts";

const SEARCH_DEBOUNCE_MS = 500;

type UserOption = Pick<User, "id" | "name" | "availability">;

/**
 * Transfer a ticket: optional user (searched, each with their availability, live), queue and — with
 * `ticket-options:transferWhatsapp` — connection. A queue without a user sends the ticket back to waiting in that
 * queue.
 */
export function TransferDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const t = useT();
  const canConnection = can(getBoot()?.user?.profile, "ticket-options:transferWhatsapp");
  const [search, setSearch] = useState("");
  const [users, setUsers] = useState<UserOption[]>([]);
  const [userId, setUserId] = useState<string>("");
  /** The chosen user, kept in the list while a search leaves them out. */
  const [chosen, setChosen] = useState<UserOption | null>(null);
  const [queues, setQueues] = useState<QueueOption[]>([]);
  const [queueId, setQueueId] = useState<string>(ticket.queueId ? String(ticket.queueId) : "");
  const [connections, setConnections] = useState<{ id: number; name: string }[]>([]);
  const [whatsappId, setWhatsappId] = useState<string>(ticket.whatsapp ? String(ticket.whatsapp.id) : "");
  const { busy, run } = useFormSave();

  useEffect(() => {
    api<QueueOption[]>("/queue")
      .then(setQueues)
      .catch((error) => toast("error", errorText(t, error)));
    if (canConnection)
      api<{ id: number; name: string }[]>("/whatsapp")
        .then(setConnections)
        .catch((error) => toast("error", errorText(t, error)));
  }, [canConnection, t]);

  useLive(["user"], (payload) => {
    if (!("user" in payload)) return;
    const { id, availability } = payload.user;
    setUsers((rows) => rows.map((u) => (u.id === id ? { ...u, availability } : u)));
    setChosen((u) => (u?.id === id ? { ...u, availability } : u));
  });

  function choose(user: UserOption | null) {
    setChosen(user);
    setUserId(user ? String(user.id) : "");
  }

  const listed = chosen && !users.some((u) => u.id === chosen.id) ? [chosen, ...users] : users;

  useEffect(() => {
    const ctrl = new AbortController();
    const id = setTimeout(() => {
      const q = search.trim().toLowerCase();
      api<{ users: UserOption[] }>(`/users?${queryString<ListQuery>(q ? { searchParam: q } : {})}`, {
        signal: ctrl.signal,
      })
        .then((res) => setUsers(res.users))
        .catch((error) => (error as Error).name !== "AbortError" && toast("error", errorText(t, error)));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(id);
      ctrl.abort();
    };
  }, [search, t]);

  async function transfer() {
    const body: TicketChanges = {};
    if (queueId) body.queueId = Number(queueId);
    if (whatsappId && canConnection && Number(whatsappId) !== ticket.whatsapp?.id) body.whatsappId = Number(whatsappId);
    if (userId) body.userId = Number(userId);
    else {
      body.userId = null;
      body.status = "pending";
    }
    await run(async () => {
      await callApi("PUT /tickets/:id", { params: { id: ticket.id }, body });
      toast("success", t("agent.transfer.done"));
      openTicket(null);
    });
  }

  return (
    <Modal
      title={t("agent.transfer.title")}
      onClose={onClose}
      onSubmit={transfer}
      busy={busy}
      okLabel={t("agent.transfer.submit")}
      okDisabled={!userId && !queueId}
    >
      <div className="field">
        <label htmlFor="transfer-search">{t("agent.transfer.searchUser")}</label>
        <input
          id="transfer-search"
          type="search"
          value={search}
          maxLength={100}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <fieldset className="field transfer-users">
        <legend>{t("agent.transfer.user")}</legend>
        <div className="transfer-user-list">
          <label className="transfer-user">
            <input type="radio" name="transfer-user" checked={!userId} onChange={() => choose(null)} />
            <span className="transfer-user-name">{t("agent.transfer.noUser")}</span>
          </label>
          {listed.map((u) => (
            <label key={u.id} className="transfer-user" data-user-id={u.id}>
              <input
                type="radio"
                name="transfer-user"
                value={u.id}
                checked={userId === String(u.id)}
                onChange={() => choose(u)}
              />
              <span className="transfer-user-name">{u.name}</span>
              <AvailabilityLabel availability={u.availability} />
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor="transfer-queue">{t("agent.transfer.queue")}</label>
        <select id="transfer-queue" value={queueId} onChange={(e) => setQueueId(e.target.value)}>
          <option value="">{t("agent.transfer.noQueue")}</option>
          {queues.map((q) => (
            <option key={q.id} value={q.id}>
              {q.name}
            </option>
          ))}
        </select>
      </div>
      {canConnection && (
        <div className="field">
          <label htmlFor="transfer-connection">{t("agent.transfer.connection")}</label>
          <select id="transfer-connection" value={whatsappId} onChange={(e) => setWhatsappId(e.target.value)}>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
    </Modal>
  );
}
