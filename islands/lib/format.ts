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
