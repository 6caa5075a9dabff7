/** The colour scheme a user picks in the user menu; "system" follows the device's light or dark setting. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

/**
 * The cookie that remembers the choice. A cookie rather than browser storage because the page's rules allow no
 * inline script, so only the server can set the scheme on <html> before the first paint.
 */
export const THEME_COOKIE = "theme";

/** The remembered theme, or "system" for a missing or unknown value. */
export function pickTheme(cookieValue: unknown): Theme {
  return (THEMES as readonly unknown[]).includes(cookieValue) ? (cookieValue as Theme) : "system";
}
