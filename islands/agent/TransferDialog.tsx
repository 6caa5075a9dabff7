import { useEffect, useState } from "react";
import { can } from "../../src/shared/permissions";
import { api, callApi, queryString } from "../lib/api";
import { getBoot } from "../lib/boot";
import { useFormSave } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { openTicket } from "../lib/ticket-nav";
import { toast } from "../lib/toast";
import type { ListQuery, QueueOption, Ticket, TicketChanges, User } from "../../src/shared/contracts";

const SEARCH_DEBOUNCE_MS = 500;

type UserOption = Pick<User, "id" | "name">;

/**
 * Transfer a ticket: optional user (searched), queue and — with `ticket-options:transferWhatsapp` — connection.
 * A queue without a user sends the ticket back to waiting in that queue.
 */
export function TransferDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const t = useT();
  const canConnection = can(getBoot()?.user?.profile, "ticket-options:transferWhatsapp");
  const [search, setSearch] = useState("");
  const [users, setUsers] = useState<UserOption[]>([]);
  const [userId, setUserId] = useState<string>("");
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
      <div className="field">
        <label htmlFor="transfer-user">{t("agent.transfer.user")}</label>
        <select id="transfer-user" value={userId} onChange={(e) => setUserId(e.target.value)}>
          <option value="">{t("agent.transfer.noUser")}</option>
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
            </option>
          ))}
        </select>
      </div>
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
