/** The instants the snooze menu offers, from `now` in the browser's time zone. */
export function snoozeChoices(now: Date) {
  const at = (days: number, hour: number) => {
    const d = new Date(now);
    d.setDate(d.getDate() + days);
    d.setHours(hour, 0, 0, 0);
    return d;
  };
  // Later today is three hours on; tomorrow and next week start at 9:00, next week on Monday.
  const laterToday = new Date(now.getTime() + 3 * 3600_000);
  const tomorrow = at(1, 9);
  const nextWeek = at((8 - now.getDay()) % 7 || 7, 9);
  return { laterToday, tomorrow, nextWeek };
}
