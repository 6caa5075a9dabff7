import { FieldError } from "../../errors";
import { isWithinDateBounds, MAX_YEAR, MIN_YEAR } from "../../shared/date-bounds";

/** Offset of `timeZone` from UTC at instant `t`, in ms (local wall time minus UTC). */
export function offsetAt(t: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(new Date(t));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return (
    Date.UTC(n("year"), n("month") - 1, n("day"), n("hour") % 24, n("minute"), n("second")) -
    (t - (((t % 1000) + 1000) % 1000))
  );
}

/** A formatter of `timeZone`'s wall time, made once per zone: making one costs more than a list's query. */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallClocks.set(timeZone, format);
  }
  return format;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The local calendar day (y, m, d) of instant `t` in `timeZone`. */
export function localDay(t: number, timeZone: string): [number, number, number] {
  const local = new Date(t + offsetAt(t, timeZone));
  return [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
}

/** UTC instant of local midnight starting day (y, m, d) in `timeZone`; the days last asked for are kept. */
function localMidnight(y: number, m: number, d: number, timeZone: string): number {
  const guess = Date.UTC(y, m - 1, d);
  const key = `${guess} ${timeZone}`;
  let midnight = midnights.get(key);
  if (midnight === undefined) {
    const first = guess - offsetAt(guess, timeZone);
    midnight = guess - offsetAt(first, timeZone);
    if (midnights.size >= KEPT_MIDNIGHTS) midnights.clear();
    midnights.set(key, midnight);
  }
  return midnight;
}

const KEPT_MIDNIGHTS = 1_000;
const midnights = new Map<string, number>();

/** [start, end) in epoch ms of the local day in `timeZone` that contains instant `t`. */
export function dayRangeOf(t: number, timeZone: string): [number, number] {
  const [y, m, d] = localDay(t, timeZone);
  return [localMidnight(y, m, d, timeZone), localMidnight(y, m, d + 1, timeZone)];
}

/**
 * The local day a `date`/`updatedAt` filter names: `YYYY-MM-DD` is taken as that calendar day, any other ISO
 * value as the day (in `timeZone`) containing that instant. Invalid or outside the accepted years → 400 on `field`.
 */
export function dayRangeParam(value: string, timeZone: string, field: string): [number, number] {
  const plain = value.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (plain) {
    const [y, m, d] = [Number(plain[1]), Number(plain[2]), Number(plain[3])];
    if (y >= MIN_YEAR && y <= MAX_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= 31)
      return [localMidnight(y, m, d, timeZone), localMidnight(y, m, d + 1, timeZone)];
  }
  const t = Date.parse(value);
  if (!plain && isWithinDateBounds(t)) return dayRangeOf(t, timeZone);
  throw new FieldError(field, "invalid");
}
