import { useState } from "react";
import { callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { startTicketWith } from "../lib/start-ticket";
import type { Contact } from "./ContactModal";
import { ContactPicker } from "./ContactPicker";

/**
 * New ticket: pick a contact (or add the typed name as one with POST /contact); OK opens the ticket for the current
 * user, or the contact's ticket already open.
 */
export function NewTicketDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const t = useT();
  const [picked, setPicked] = useState<Contact | null>(null);
  const [newName, setNewName] = useState<string | null>(null);
  const [number, setNumber] = useState("");
  const { busy, setBusy, run } = useFormSave();

  async function submit() {
    await run(async () => {
      // Without a picked contact, OK is enabled only once a name is typed.
      const contact = picked ?? (await callApi("POST /contact", { body: { name: newName!, number } }));
      if (await startTicketWith(t, contact.id, userId)) onClose();
      else setBusy(false);
    });
  }

  return (
    <Modal
      title={t("agent.newTicket.title")}
      onClose={onClose}
      onSubmit={submit}
      okLabel={t("agent.common.ok")}
      busy={busy}
      okDisabled={!picked && !(newName && number.trim())}
    >
      <ContactPicker
        id="new-ticket-contact"
        label={t("agent.newTicket.contact")}
        value={picked}
        onPick={(c) => {
          setPicked(c);
          setNewName(null);
        }}
        onCreate={setNewName}
      />
      {newName && !picked && (
        <div className="field">
          <label htmlFor="new-ticket-number">{t("agent.contacts.number")}</label>
          <input
            id="new-ticket-number"
            type="tel"
            value={number}
            maxLength={30}
            onChange={(e) => setNumber(e.target.value)}
          />
        </div>
      )}
    </Modal>
  );
}
