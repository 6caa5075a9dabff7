import { useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { type TemplateChoice, TemplateFields } from "../lib/template-fields";
import { toast } from "../lib/toast";

/**
 * What the Cloud API takes after the customer's 24-hour window: one of the connection's approved templates, its
 * values filled in a small form, with a preview of the text the customer gets.
 */
export function TemplateDialog({
  ticketId,
  whatsappId,
  onClose,
}: {
  ticketId: number;
  whatsappId: number;
  onClose: () => void;
}) {
  const t = useT();
  const [choice, setChoice] = useState<TemplateChoice>({ template: null, complete: false });
  const [busy, setBusy] = useState(false);

  async function send() {
    if (!choice.template || !choice.complete) return;
    setBusy(true);
    try {
      await api(`/messages/${ticketId}/template`, { method: "POST", body: choice.template });
      toast("success", t("chat.template.sent"));
      onClose();
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={t("chat.template.title")}
      onClose={onClose}
      onSubmit={() => void send()}
      busy={busy}
      okLabel={t("chat.template.send")}
      okDisabled={!choice.complete}
    >
      <p className="field-note">{t("errors.ERR_OUTSIDE_24H_WINDOW")}</p>
      <TemplateFields whatsappId={whatsappId} onChange={setChoice} />
    </Modal>
  );
}
