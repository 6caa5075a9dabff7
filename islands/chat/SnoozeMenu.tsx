import { useState } from "react";
import type { Ticket } from "../../src/shared/contracts";
import { DateTimeField } from "../lib/date-time-field";
import { dateTimeLabel, parseDateTime } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { MenuButton } from "../lib/menu-button";
import { snoozeChoices } from "./snooze-times";

/**
 * The chat header's Snooze menu: later today, tomorrow, next week or a picked date and time; on a snoozed ticket,
 * the time it comes back and a way to bring it back now.
 */
export function SnoozeMenu({
  ticket,
  onSnooze,
  onUnsnooze,
}: {
  ticket: Ticket;
  onSnooze: (until: Date) => void;
  onUnsnooze: () => void;
}) {
  const t = useT();
  const [picked, setPicked] = useState("");
  const pickedDate = parseDateTime(picked);
  const snoozedUntil = ticket.snoozedUntil ? new Date(ticket.snoozedUntil) : null;
  const choose = (close: () => void, until: Date) => {
    close();
    onSnooze(until);
  };
  return (
    <MenuButton
      className="chat-snooze"
      buttonClassName="button small"
      button={t("chat.snooze.action")}
      haspopup="menu"
      menuRole="menu"
      menu={(close) => {
        const choices = snoozeChoices(new Date());
        return (
          <>
            {snoozedUntil && (
              <>
                <p className="menu-note">{t("chat.snooze.until", { time: dateTimeLabel(snoozedUntil) })}</p>
                <button type="button" role="menuitem" onClick={() => (close(), onUnsnooze())}>
                  {t("chat.snooze.unsnooze")}
                </button>
              </>
            )}
            <button type="button" role="menuitem" onClick={() => choose(close, choices.laterToday)}>
              {t("chat.snooze.laterToday")}
            </button>
            <button type="button" role="menuitem" onClick={() => choose(close, choices.tomorrow)}>
              {t("chat.snooze.tomorrow")}
            </button>
            <button type="button" role="menuitem" onClick={() => choose(close, choices.nextWeek)}>
              {t("chat.snooze.nextWeek")}
            </button>
            <div className="menu-field">
              <DateTimeField id="snooze-at" label={t("chat.snooze.pick")} value={picked} onChange={setPicked} />
            </div>
            <button
              type="button"
              role="menuitem"
              disabled={!pickedDate || pickedDate.getTime() <= Date.now()}
              onClick={() => pickedDate && choose(close, pickedDate)}
            >
              {t("chat.snooze.apply")}
            </button>
          </>
        );
      }}
    />
  );
}
