import { addHours, format } from "date-fns";
import { useState } from "react";
import type { NewSchedule, Schedule } from "../../src/shared/contracts";
import { FORM_RULES } from "../../src/shared/validation";
import { callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { DateTimeField } from "../lib/date-time-field";
import { useFieldChecks } from "../lib/field-checks";
import { DATE_TIME, parseDateTime } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { type TemplateChoice, TemplateFields, useTemplateConnection } from "../lib/template-fields";
import { toast } from "../lib/toast";
import { ContactPicker } from "./ContactPicker";

export type { Schedule };

/** What a new schedule starts with when it is written from a chat: its contact, the typed text, its ticket. */
export interface SchedulePrefill {
  contact: { id: number; name: string };
  body: string;
  ticketId: number;
  /** The chat's connection: a Cloud API one offers its templates for a customer outside the 24-hour window. */
  whatsappId?: number | null;
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
  /** Whether a date the app cannot read shows its message: once the field was left or a save tried. */
  const [shownFormat, setShownFormat] = useState(false);
  const [sendAt, setSendAt] = useState(format(value ? new Date(value.sendAt) : addHours(new Date(), 1), DATE_TIME));
  const { busy, fieldError, run } = useFormSave(false, "schedule", ["body", "sendAt"]);
  const checks = useFieldChecks(FORM_RULES.schedule, { body, sendAt }, "schedule");
  const sendAtDate = parseDateTime(sendAt);
  const bodyError = checks.error("body", fieldError);
  // Typed in the app's format; one the browser cannot read as a date is refused here, before any request.
  const sendAtError =
    checks.error("sendAt", fieldError) ?? (sendAt.trim() && !sendAtDate && shownFormat ? t("dateTime.format") : null);
  const sent = !!value?.sentAt;
  const templateConnection = useTemplateConnection(prefill?.whatsappId);
  const [template, setTemplate] = useState<TemplateChoice>({ template: value?.template ?? null, complete: true });

  function save() {
    setShownFormat(true);
    if (!checks.checkAll() || !sendAtDate) return;
    if (!template.complete) return toast("error", t("bulk.send.fillAll"));
    return run(async () => {
      // The typed date is the browser's wall clock: send it as an absolute instant.
      const sameChat = !value && prefill && contact?.id === prefill.contact.id;
      const payload: NewSchedule = {
        contactId: contact!.id,
        body,
        sendAt: sendAtDate.toISOString(),
        ...(templateConnection ? { template: template.template } : {}),
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
      <DateTimeField
        id="schedule-send-at"
        label={t("agent.schedules.sendAt")}
        value={sendAt}
        disabled={sent}
        error={sendAtError}
        onChange={(text) => {
          setSendAt(text);
          checks.touch("sendAt");
        }}
        onBlur={() => {
          checks.touch("sendAt");
          setShownFormat(true);
        }}
      />
      {templateConnection && !sent && (
        <fieldset className="field">
          <legend>{t("chat.template.outsideWindow")}</legend>
          <p className="field-note">{t("chat.template.outsideWindowNote")}</p>
          <TemplateFields
            whatsappId={templateConnection}
            initial={value?.template}
            optional
            label={t("chat.template.pickApproved")}
            onChange={setTemplate}
          />
        </fieldset>
      )}
    </Modal>
  );
}
