import { instantField } from "../../http/instant-field";
import { FieldError } from "../../errors";
import { dayRangeOf, dayRangeParam, localDay } from "../tickets/day-range";

const DAY_MS = 24 * 3600_000;
const MAX_DAYS = 366;
const DEFAULT_DAYS = 7;

/** The span a report covers, [start, end) in epoch ms, and its local days in the installation's time zone. */
export interface ReportSpan {
  start: number;
  end: number;
  days: ReportDaySlot[];
}

/** One local day: its date and [start, end) in epoch ms. */
export interface ReportDaySlot {
  date: string;
  start: number;
  end: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
}

/**
 * The span of `from`/`to`: ISO instants, or local days (`YYYY-MM-DD`: from that day's midnight, to the end of that
 * day, in `timeZone`); by default from the local midnight six days before today to now (the
 * last 7 days, today included). `from` after `to` → 400 on `from`; over 366 days or an invalid instant → 400 on
 * the field.
 */
export function reportSpan(from: string | undefined, to: string | undefined, now: number, timeZone: string) {
  const end = to === undefined ? now : instant(to, "to", timeZone, 1);
  const start =
    from === undefined
      ? // Midnight of the day whose noon is six days before today's: right across a change of clock too.
        dayRangeOf(dayRangeOf(end - 1, timeZone)[0] - (DEFAULT_DAYS - 1.5) * DAY_MS, timeZone)[0]
      : instant(from, "from", timeZone, 0);
  if (start > end) throw new FieldError("from", "invalid", "From must not be after to");
  if (end - start > MAX_DAYS * DAY_MS) throw new FieldError("to", "max", "The range may not exceed 366 days");
  return { start, end, days: daysOf(start, end, timeZone) };
}

/** The instant `value` names; a plain date, its local day's start (`bound` 0) or end (1). */
function instant(value: string, field: string, timeZone: string, bound: 0 | 1): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dayRangeParam(value, timeZone, field)[bound];
  return instantField(field, value);
}

/** The local days [start, end) touches, each with its bounds. */
function daysOf(start: number, end: number, timeZone: string): ReportDaySlot[] {
  const days: ReportDaySlot[] = [];
  let t = start;
  do {
    const [dayStart, dayEnd] = dayRangeOf(t, timeZone);
    const [y, m, d] = localDay(t, timeZone);
    days.push({
      date: `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
      start: dayStart,
      end: dayEnd,
      weekday: (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7,
    });
    t = dayEnd;
  } while (t < end);
  return days;
}

/** The index in `days` of the day holding instant `t`, or -1 (binary search: the days are in order). */
export function dayIndexOf(days: readonly ReportDaySlot[], t: number): number {
  let low = 0;
  let high = days.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const day = days[mid]!;
    if (t < day.start) high = mid - 1;
    else if (t >= day.end) low = mid + 1;
    else return mid;
  }
  return -1;
}
