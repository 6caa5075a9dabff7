import type { Db } from "../../db/client";
import type { LaneRule } from "../../jobs/runner";
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

/** The shortest wait between two sends of a connection. */
const MIN_GAP_MS = 1000;

/** The connection's bulk throttling as it is now: read each time its next recipient is due. */
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

/** A connection's lane of recipients, with its throttling for the send's checks (photo, saved contact). */
export interface BulkLaneRule extends LaneRule {
  throttle: Throttle;
}

/**
 * One send per minutes×60+seconds (at least a second); with `random`, plus up to as much again; at most `limit`
 * sends per trailing 24 h, 0 pausing the campaign.
 */
export function laneRule(throttle: Throttle): BulkLaneRule {
  return {
    intervalMs: Math.max(MIN_GAP_MS, (throttle.minutes * 60 + throttle.seconds) * 1000),
    jitter: throttle.random,
    perDay: throttle.limit,
    throttle,
  };
}
