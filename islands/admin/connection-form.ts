import type { TFunction } from "i18next";
import type { Connection, NewConnection } from "../../src/shared/contracts";
import type { Provider } from "../../src/shared/contracts/providers";
import type { ConnectionLanguage } from "../../src/shared/contracts/connections";

export const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Day = (typeof DAYS)[number];

/**
 * The connection modal's fields, named as the API takes them; `days` holds the seven day switches the API takes as
 * separate flags, and `importHistoryDays` the input's text.
 */
export interface Form extends Required<Omit<NewConnection, Day | "isMultidevice" | "importHistoryDays">> {
  importHistoryDays: string;
  days: Required<Pick<NewConnection, Day>>;
}

/**
 * Form defaults of a new connection: a real WhatsApp number (the sandbox is picked on purpose, so a number meant for
 * customers never ends up simulated), 08:00–17:30 every day, Monday to Friday on, the satisfaction survey off with
 * `defaultSurvey` (in the interface's language) as its text, automatic texts in `language` (the interface's).
 */
export function initial(c: Connection | null, defaultSurvey: string, language: ConnectionLanguage): Form {
  return {
    name: c?.name ?? "",
    provider: c?.provider ?? "baileys",
    isDefault: c?.isDefault ?? false,
    greetingMessage: c?.greetingMessage ?? "",
    farewellMessage: c?.farewellMessage ?? "",
    transferTicketMessage: c?.transferTicketMessage ?? "",
    outOfWorkMessage: c?.outOfWorkMessage ?? "",
    csatEnabled: c?.csatEnabled ?? false,
    csatMessage: c?.csatMessage || defaultSurvey,
    wavoip: c?.wavoip ?? "",
    defineWorkHours: c?.defineWorkHours ?? false,
    startWorkHour: c?.startWorkHour ?? "08:00",
    endWorkHour: c?.endWorkHour ?? "17:30",
    startWorkHourWeekend: c?.startWorkHourWeekend ?? "08:00",
    endWorkHourWeekend: c?.endWorkHourWeekend ?? "17:30",
    importHistory: c?.importHistory ?? false,
    importHistoryDays: String(c?.importHistoryDays ?? 7),
    language: c?.language ?? language,
    queueIds: c?.queues?.map((q) => q.id) ?? [],
    phoneNumberId: c?.phoneNumberId ?? "",
    businessAccountId: c?.businessAccountId ?? "",
    accessToken: c?.accessToken ?? "",
    appSecret: c?.appSecret ?? "",
    verifyToken: c?.verifyToken ?? "",
    days: Object.fromEntries(DAYS.map((d, i) => [d, c ? c[d] : i < 5])) as Form["days"],
  };
}

/** The Cloud API fields of a saved form: a secret left blank is kept as it is (events never carry it to the form). */
export function cloudChanges(form: Form): Partial<NewConnection> {
  const { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken } = form;
  if (form.provider !== "cloud") return {};
  return {
    phoneNumberId: phoneNumberId.trim(),
    businessAccountId: businessAccountId.trim(),
    ...(accessToken.trim() ? { accessToken } : {}),
    ...(appSecret.trim() ? { appSecret } : {}),
    ...(verifyToken.trim() ? { verifyToken } : {}),
  };
}

/** Sets one field of the form. */
export type SetField = <K extends keyof Form>(key: K) => (value: Form[K]) => void;

/** How the provider select names each network. */
export function providerLabel(t: TFunction, provider: Provider): string {
  const labels: Record<Provider, string> = {
    baileys: "WhatsApp (Baileys)",
    sandbox: t("admin.connections.sandboxProvider"),
    cloud: t("admin.connections.cloudProvider"),
  };
  return labels[provider];
}
