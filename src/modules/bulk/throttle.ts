import type { Db } from "../../db/client";
import { getSettingsMessage } from "../settings-message/service";

export interface Throttle {
  limit: number;
  minutes: number;
  seconds: number;
  photo: boolean;
  random: boolean;
  contacts: boolean;
}

/** A connection whose throttling was never saved sends with the defaults of the settings screen. */
const DEFAULTS: Throttle = { limit: 10, minutes: 1, seconds: 0, photo: false, random: false, contacts: false };

/** The connection's bulk throttling as it is now: read on every tick, so a change applies to the next send. */
export async function throttleFor(db: Db, connectionId: number): Promise<Throttle> {
  const row = await getSettingsMessage(db, connectionId);
  if (!row) return DEFAULTS;
  return {
    limit: row.limit,
    minutes: row.minutes,
    seconds: row.seconds,
    photo: row.photo,
    random: row.random,
    contacts: row.contacts,
  };
}
