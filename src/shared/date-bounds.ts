/** Dates the app accepts in queries and bodies: anything outside these years is a typo or a probe, never a real filter. */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;

/** True when `ms` is a finite instant between the start of MIN_YEAR and the end of MAX_YEAR (UTC). */
export function isWithinDateBounds(ms: number): boolean {
  return Number.isFinite(ms) && ms >= Date.UTC(MIN_YEAR, 0, 1) && ms < Date.UTC(MAX_YEAR + 1, 0, 1);
}
