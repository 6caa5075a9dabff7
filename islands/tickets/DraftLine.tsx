import { useSignals } from "@preact/signals-react/runtime";
import { drafts } from "../lib/drafts";
import { useT } from "../lib/i18n-context";

/** A ticket row's "Draft: …" line, in place of its last message while the user has an unsent reply there. */
export function DraftLine({ ticketId }: { ticketId: number }) {
  useSignals();
  const t = useT();
  const body = drafts.value.get(ticketId);
  if (!body) return null;
  return (
    <span className="row-draft">
      <strong>{t("tickets.draft")}</strong> {body}
    </span>
  );
}
