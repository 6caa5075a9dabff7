import { useEffect, useRef, useState } from "react";
import { callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";

/** The model's summary of the ticket's conversation, asked for when the dialog opens; a failure closes it with a toast. */
export function AiSummaryDialog({ ticketId, onClose }: { ticketId: number; onClose: () => void }) {
  const t = useT();
  const [summary, setSummary] = useState<string | null>(null);
  // Asked once per ticket: the chat hands a new `onClose` at every render.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    let open = true;
    callApi("POST /tickets/:id/ai/summary", { params: { id: ticketId } }).then(
      (answer) => open && setSummary(answer.summary),
      (error) => {
        if (!open) return;
        toast("error", errorText(t, error));
        closeRef.current();
      },
    );
    return () => {
      open = false;
    };
  }, [ticketId, t]);
  return (
    <Modal title={t("chat.ai.summaryTitle")} onClose={onClose}>
      {summary === null ? (
        <p className="list-empty">{t("chat.ai.summarizing")}</p>
      ) : (
        <p className="ai-summary">{summary}</p>
      )}
    </Modal>
  );
}
