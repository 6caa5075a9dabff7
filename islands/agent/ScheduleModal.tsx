import { addHours, format } from "date-fns";
import { useState } from "react";
import type { NewSchedule, Schedule } from "../../src/shared/contracts";
import { FORM_RULES } from "../../src/shared/validation";
import { callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { useFieldChecks } from "../lib/field-checks";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import { ContactPicker } from "./ContactPicker";

export type { Schedule };

const LOCAL_INPUT = "yyyy-MM-dd'T'HH:mm";

/** What a new schedule starts with when it is written from a chat: its contact, the typed text, its ticket. */
export interface SchedulePrefill {
  contact: { id: number; name: string };
  body: string;
  ticketId: number;
}

/** The add/edit schedule modal; a sent schedule is shown but cannot be saved again. */
export function ScheduleModal({
  value,
  prefill,
  onClose,
  onSaved,
}: {
  value: Schedule | null;
  prefill?: SchedulePrefill;
  onClose: () => void;
  onSaved: (s: Schedule) => void;
}) {
  const t = useT();
  const [contact, setContact] = useState<{ id: number; name: string } | null>(
    value?.contact ?? prefill?.contact ?? null,
  );
  const [body, setBody] = useState(value?.body ?? prefill?.body ?? "");
  const [sendAt, setSendAt] = useState(format(value ? new Date(value.sendAt) : addHours(new Date(), 1), LOCAL_INPUT));
  const { busy, fieldError, run } = useFormSave(false, "schedule", ["body", "sendAt"]);
  const checks = useFieldChecks(FORM_RULES.schedule, { body, sendAt }, "schedule");
  const bodyError = checks.error("body", fieldError);
  const sendAtError = checks.error("sendAt", fieldError);
  const sent = !!value?.sentAt;

  function save() {
    if (!checks.checkAll()) return;
    return run(async () => {
      // The datetime-local value is the browser's wall clock: send it as an absolute instant.
      const sameChat = !value && prefill && contact?.id === prefill.contact.id;
      const payload: NewSchedule = {
        contactId: contact!.id,
        body,
        sendAt: new Date(sendAt).toISOString(),
        ...(sameChat ? { ticketId: prefill.ticketId } : {}),
      };
      const saved = value
        ? await callApi("PUT /schedules/:id", { params: { id: value.id }, body: payload })
        : await callApi("POST /schedules", { body: payload });
      toast("success", t("agent.schedules.saved"));
      onSaved(saved);
      onClose();
    });
  }

  const title = value
    ? `${t("agent.schedules.edit")} — ${t(`agent.schedules.statuses.${value.status}`)}`
    : t("agent.schedules.add");
  return (
    <Modal
      title={title}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
      okDisabled={sent || !contact || !sendAt}
      disabledReason={sent ? t("agent.schedules.cannotChange") : undefined}
    >
      {sent && <p className="notice">{t("agent.schedules.alreadySent")}</p>}
      <ContactPicker id="schedule-contact" label={t("agent.schedules.contact")} value={contact} onPick={setContact} />
      <div className="field">
        <label htmlFor="schedule-body">{t("agent.schedules.body")}</label>
        <textarea
          id="schedule-body"
          rows={5}
          value={body}
          maxLength={30000}
          disabled={sent}
          aria-invalid={!!bodyError || undefined}
          onChange={(e) => {
            setBody(e.target.value);
            checks.touch("body");
          }}
          onBlur={() => checks.touch("body")}
        />
        {bodyError && <p className="field-error">{bodyError}</p>}
      </div>
      <div className="field">
        <label htmlFor="schedule-send-at">{t("agent.schedules.sendAt")}</label>
        <input
          id="schedule-send-at"
          type="datetime-local"
          value={sendAt}
          disabled={sent}
          aria-invalid={!!sendAtError || undefined}
          onChange={(e) => {
            setSendAt(e.target.value);
            checks.touch("sendAt");
          }}
          onBlur={() => checks.touch("sendAt")}
        />
        {sendAtError && <p className="field-error">{sendAtError}</p>}
      </div>
    </Modal>
  );
}
