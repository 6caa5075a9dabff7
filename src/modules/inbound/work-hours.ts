import type { ConnectionRow } from "../../db/tables";

type Day = "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
const DAYS: Record<string, Day> = {
  Sun: "sunday",
  Mon: "monday",
  Tue: "tuesday",
  Wed: "wednesday",
  Thu: "thursday",
  Fri: "friday",
  Sat: "saturday",
};

type WorkHours = Pick<
  ConnectionRow,
  "defineWorkHours" | "startWorkHour" | "endWorkHour" | "startWorkHourWeekend" | "endWorkHourWeekend" | Day
>;

/** Minutes since midnight of an `HH:mm` string, or null when malformed. */
export function minutesOf(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/** The weekday and minutes since midnight of `at` in `timeZone`. */
export function localTime(at: number, timeZone: string): { day: Day; minutes: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: DAYS[get("weekday")] ?? "monday", minutes: Number(get("hour")) * 60 + Number(get("minute")) };
}

/**
 * Work hours: the receiving connection only, minutes since midnight in the configured time zone,
 * a disabled day is outside, and an end before the start crosses midnight.
 */
export function isInsideWorkHours(connection: WorkHours, at: number, timeZone: string): boolean {
  if (!connection.defineWorkHours) return true;
  const { day, minutes } = localTime(at, timeZone);
  if (!connection[day]) return false;
  const weekend = day === "saturday" || day === "sunday";
  const start = minutesOf(weekend ? connection.startWorkHourWeekend : connection.startWorkHour);
  const end = minutesOf(weekend ? connection.endWorkHourWeekend : connection.endWorkHour);
  if (start == null || end == null) return true;
  return start <= end ? minutes >= start && minutes <= end : minutes >= start || minutes <= end;
}
