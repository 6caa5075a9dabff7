import type { NewQueue } from "../../src/shared/contracts";
import { Input } from "../lib/form";
import { useT } from "../lib/i18n-context";

/** A queue's SLA targets as the form holds them (minutes, 0 = off). */
export type QueueSla = Required<Pick<NewQueue, "firstResponseMinutes" | "resolutionMinutes">>;

export const NO_SLA: QueueSla = { firstResponseMinutes: 0, resolutionMinutes: 0 };

/** The targets of a loaded queue (0 for a server that does not send them). */
export const slaOfQueue = (q: Partial<QueueSla>): QueueSla => ({
  firstResponseMinutes: q.firstResponseMinutes ?? 0,
  resolutionMinutes: q.resolutionMinutes ?? 0,
});

/** Whole minutes from the field; anything else counts as 0 (off). */
const minutes = (text: string) => {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 525_600) : 0;
};

/** The queue modal's SLA fieldset: first-reply and resolution targets in minutes. */
export function QueueSlaFields({ value, onChange }: { value: QueueSla; onChange: (v: QueueSla) => void }) {
  const t = useT();
  const field = (key: keyof QueueSla, label: string) => (
    <Input
      type="number"
      label={label}
      value={String(value[key])}
      onChange={(text) => onChange({ ...value, [key]: minutes(text) })}
      maxLength={6}
    />
  );
  return (
    <fieldset className="admin-checks">
      <legend>{t("admin.queues.sla.title")}</legend>
      <div className="admin-grid">
        {field("firstResponseMinutes", t("admin.queues.sla.firstResponse"))}
        {field("resolutionMinutes", t("admin.queues.sla.resolution"))}
      </div>
      <p className="field-note">{t("admin.queues.sla.hint")}</p>
    </fieldset>
  );
}
