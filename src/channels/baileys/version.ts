import { DEFAULT_CONNECTION_CONFIG, fetchLatestWaWebVersion } from "baileys";
import type { Logger } from "../../log";

/** A WhatsApp Web client version, e.g. [2, 3000, 1023456789]. */
export type WaVersion = [number, number, number];

/** Asks WhatsApp Web for its current version; `signal` aborts the request. */
export type FetchLatestVersion = (
  signal: AbortSignal,
) => Promise<{ version: number[]; isLatest: boolean; error?: unknown }>;

export const BUNDLED_VERSION = DEFAULT_CONNECTION_CONFIG.version as WaVersion;

export const fetchLatestFromWhatsApp: FetchLatestVersion = (signal) => fetchLatestWaWebVersion({ signal });

export const formatVersion = (v: WaVersion) => v.join(".");

/**
 * The version to present to WhatsApp: the configured one (WA_VERSION), else the one WhatsApp Web publishes now,
 * else the version this Baileys release was built with. WhatsApp closes connections of versions it no longer
 * accepts with code 405. Never throws; logs one line saying which version was chosen and why.
 */
export async function resolveWaVersion(opts: {
  pinned?: WaVersion;
  fetchLatest?: FetchLatestVersion | false;
  timeoutMs?: number;
  log: Logger;
}): Promise<WaVersion> {
  const { pinned, log } = opts;
  if (pinned) {
    log.info(`WhatsApp Web version ${formatVersion(pinned)} (WA_VERSION)`);
    return pinned;
  }
  if (opts.fetchLatest === false) return BUNDLED_VERSION;
  const fetchLatest = opts.fetchLatest ?? fetchLatestFromWhatsApp;
  let failure: unknown;
  try {
    const latest = await fetchLatest(AbortSignal.timeout(opts.timeoutMs ?? 3000));
    if (latest.isLatest && isVersion(latest.version)) {
      log.info(`WhatsApp Web version ${formatVersion(latest.version)} (latest published)`);
      return latest.version;
    }
    failure = latest.error;
  } catch (error) {
    failure = error;
  }
  const why =
    failure instanceof Error
      ? failure.message
      : String((failure as { message?: unknown } | undefined)?.message ?? failure ?? "no answer");
  log.info(`WhatsApp Web version ${formatVersion(BUNDLED_VERSION)} (bundled; the latest could not be read: ${why})`);
  return BUNDLED_VERSION;
}

function isVersion(v: number[]): v is WaVersion {
  return v.length === 3 && v.every((n) => Number.isSafeInteger(n) && n >= 0);
}
