import { format, isSameDay } from "date-fns";

/** HH:mm when the time is today, else dd/MM/yyyy (in the browser's time zone; call after mount only). */
export function listTime(iso: string | number | Date, now = new Date()): string {
  const d = new Date(iso);
  return isSameDay(d, now) ? format(d, "HH:mm") : format(d, "dd/MM/yyyy");
}

/** HH:mm of a message bubble. */
export function clockTime(iso: string | number | Date): string {
  return format(new Date(iso), "HH:mm");
}

/** dd/MM/yyyy of a date separator. */
export function dayLabel(iso: string | number | Date): string {
  return format(new Date(iso), "dd/MM/yyyy");
}

/** The app's date and time, as the schedules list shows it and its form takes it. */
export const DATE_TIME = "dd/MM/yyyy HH:mm";

/** dd/MM/yyyy HH:mm of an instant, in the browser's time zone (call after mount only). */
export function dateTimeLabel(iso: string | number | Date): string {
  return format(new Date(iso), DATE_TIME);
}

/**
 * The local instant a typed date and time names: `dd/MM/yyyy HH:mm` (the app's format; one-digit day, month and
 * hour allowed), or `yyyy-MM-ddTHH:mm` as a browser's date picker gives it; null when it is neither or no such day.
 */
export function parseDateTime(text: string): Date | null {
  const value = text.trim();
  const app = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/.exec(value);
  const [day, month, year, hour, minute] = app
    ? app.slice(1).map(Number)
    : iso
      ? [iso[3], iso[2], iso[1], iso[4], iso[5]].map(Number)
      : [];
  if (day === undefined) return null;
  const date = new Date(year!, month! - 1, day, hour, minute);
  const same =
    date.getFullYear() === year && date.getMonth() === month! - 1 && date.getDate() === day && date.getHours() === hour;
  return same && minute! < 60 ? date : null;
}
