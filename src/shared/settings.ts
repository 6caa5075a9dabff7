/** Global settings: key → allowed values (null = free text) and default. */
export const SETTING_DEFINITIONS = {
  userCreation: { allowed: ["enabled", "disabled"], default: "disabled" },
  timeCreateNewTicket: {
    allowed: ["10", "30", "60", "300", "1800", "3600", "7200", "21600", "43200", "86400", "172800"],
    default: "43200",
  },
  call: { allowed: ["enabled", "disabled"], default: "enabled" },
  CheckMsgIsGroup: { allowed: ["enabled", "disabled"], default: "enabled" },
  userApiToken: { allowed: null, default: null },
  chatBotType: { allowed: ["text", "button", "list"], default: "text" },
} as const satisfies Record<string, { allowed: readonly string[] | null; default: string | null }>;

export type SettingKey = keyof typeof SETTING_DEFINITIONS;

export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}
