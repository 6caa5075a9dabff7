import { useState } from "react";
import type { Message } from "../../src/shared/contracts";
import type { Contact } from "../agent/ContactModal";
import { ContactPicker } from "../agent/ContactPicker";
import { callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";

/** Whether a message can be forwarded: a text, or a file that is stored; never a note or a deleted message. */
export function isForwardable(m: Message): boolean {
  if (m.isDeleted || m.isPrivate) return false;
  return m.mediaUrl ? !m.mediaState : m.mediaType === "chat" && !!m.body.trim();
}

/**
 * Forward: contacts picked by search, one after another; OK sends the messages, in their order, to each one's
 * ticket, and `onDone` follows.
 */
export function ForwardDialog({
  messages,
  onClose,
  onDone,
}: {
  messages: Message[];
  onClose: () => void;
  onDone: () => void;
}) {
  const t = useT();
  const [picked, setPicked] = useState<Contact[]>([]);
  // A new picker after each choice: it starts empty for the next search.
  const [round, setRound] = useState(0);
  const { busy, run } = useFormSave();

  async function submit() {
    await run(async () => {
      for (const message of messages)
        await callApi("POST /messages/:id/forward", {
          params: { id: message.id },
          body: { contactIds: picked.map((c) => c.id) },
        });
      toast("success", t("chat.forward.done"));
      onDone();
    });
  }

  return (
    <Modal
      title={t("chat.forward.title")}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      okLabel={t("chat.forward.send")}
      okDisabled={picked.length === 0}
    >
      <ul className="forward-preview">
        {messages.map((m) => (
          <li key={m.id}>{m.mediaUrl ? (m.fileName ?? m.body) : m.body}</li>
        ))}
      </ul>
      <ContactPicker
        key={round}
        id="forward-contact"
        label={t("chat.forward.to")}
        value={null}
        onPick={(c) => {
          if (!c) return;
          setPicked((list) => (list.some((p) => p.id === c.id) ? list : [...list, c]));
          setRound((n) => n + 1);
        }}
      />
      {picked.length > 0 && (
        <ul className="forward-picked" aria-label={t("chat.forward.picked")}>
          {picked.map((c) => (
            <li key={c.id}>
              {c.name}
              <button
                type="button"
                className="icon-button"
                aria-label={t("chat.forward.unpick", { name: c.name })}
                onClick={() => setPicked((list) => list.filter((p) => p.id !== c.id))}
              >
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
