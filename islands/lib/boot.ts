import type { Resource } from "i18next";
import type { Lang } from "../../src/i18n/shared";
import type { Availability } from "../../src/shared/contracts/users";
import type { Theme } from "../../src/shared/theme";

/** The signed-in user as the page shell ships it. */
export interface BootUser {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "user";
  /** As it is once this page's socket is open. */
  availability: Availability;
}

/** What the server embeds in `#__boot` for the client entry. */
export interface Boot {
  lng: Lang;
  resources: Resource;
  token: string | null;
  user: BootUser | null;
  tz?: string;
  /** The remembered colour scheme; absent means "system". */
  theme?: Theme;
}

let current: Boot | null = null;

/** Stores the parsed boot data (client entry only). */
export function setBoot(boot: Boot) {
  current = boot;
}

/** The boot data, or null before the client entry ran (and on the server). */
export function getBoot(): Boot | null {
  return current;
}
