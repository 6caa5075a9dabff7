import type { Db } from "../../db/client";
import { AppError, FieldError } from "../../errors";
import { AI_FEATURES, type AiFeature, type AiSettingsDto, type AiSettingsUpdate } from "../../shared/contracts/ai";
import { readOwnSetting, writeOwnSetting } from "../settings/service";

const CONFIG_KEY = "ai.config";
const API_KEY_KEY = "ai.apiKey";

/** The AI configuration as the server uses it: the settings plus the API key, which never leaves the server. */
export type AiConfig = Omit<AiSettingsDto, "hasKey"> & { apiKey: string };

export const AI_DEFAULTS: Omit<AiSettingsDto, "hasKey"> = {
  enabled: false,
  baseUrl: "",
  model: "",
  features: ["suggest", "summary"],
  timeoutMs: 20_000,
  perMinute: 20,
  dailyTokens: 200_000,
  includeNotes: false,
  autoSummary: false,
  botQueueIds: [],
  botKnowledge: "",
  botMaxTurns: 3,
};

/** The stored configuration, defaults filling what was never set. */
export async function readAiConfig(db: Db): Promise<AiConfig> {
  const stored = await readOwnSetting(db, CONFIG_KEY);
  const settings = { ...AI_DEFAULTS, ...(stored ? (JSON.parse(stored) as Partial<AiSettingsDto>) : {}) };
  return { ...settings, apiKey: (await readOwnSetting(db, API_KEY_KEY)) ?? "" };
}

/** What GET /ai/settings answers: the configuration without its key. */
export function aiSettingsDto({ apiKey, ...settings }: AiConfig): AiSettingsDto {
  return { ...settings, hasKey: apiKey !== "" };
}

/** Changes the given fields; a new `apiKey` replaces the stored one, an empty one removes it. */
export async function updateAiSettings(db: Db, update: AiSettingsUpdate): Promise<AiSettingsDto> {
  const { apiKey, ...changes } = update;
  const current = await readAiConfig(db);
  const { apiKey: _kept, ...settings } = { ...current, ...changes };
  settings.baseUrl = settings.baseUrl.trim().replace(/\/+$/, "");
  settings.model = settings.model.trim();
  settings.features = AI_FEATURES.filter((feature: AiFeature) => settings.features.includes(feature));
  if (settings.baseUrl && !isHttpUrl(settings.baseUrl)) throw new FieldError("baseUrl", "invalid");
  if (settings.enabled && (!settings.baseUrl || !settings.model)) throw new AppError("ERR_AI_NOT_CONFIGURED");
  await writeOwnSetting(db, CONFIG_KEY, JSON.stringify(settings));
  if (apiKey !== undefined) await writeOwnSetting(db, API_KEY_KEY, apiKey.trim() || null);
  return aiSettingsDto(await readAiConfig(db));
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
