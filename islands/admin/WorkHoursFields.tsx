import { Checkbox, Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { DAYS, type Form, type SetField } from "./connection-form";

/** The four hour fields and the label key of each. */
const HOURS = [
  ["startWorkHour", "start"],
  ["endWorkHour", "end"],
  ["startWorkHourWeekend", "startWeekend"],
  ["endWorkHourWeekend", "endWeekend"],
] as const;

/** The connection's work hours: the switch, weekday and weekend hours, and the days it works. */
export function WorkHoursFields({ form, set }: { form: Form; set: SetField }) {
  const t = useT();
  return (
    <fieldset className="admin-checks">
      <legend>{t("admin.connections.workHours")}</legend>
      <Checkbox
        label={t("admin.connections.defineWorkHours")}
        checked={form.defineWorkHours}
        onChange={set("defineWorkHours")}
      />
      <div className="admin-grid">
        {HOURS.map(([field, label]) => (
          <Input
            key={field}
            type="time"
            label={t(`admin.connections.${label}`)}
            value={form[field]}
            onChange={set(field)}
            maxLength={5}
          />
        ))}
      </div>
      <div className="admin-days">
        {DAYS.map((d) => (
          <label key={d} className="menu-check">
            <input
              type="checkbox"
              checked={form.days[d]}
              onChange={(e) => set("days")({ ...form.days, [d]: e.target.checked })}
            />
            {t(`admin.connections.days.${d}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
