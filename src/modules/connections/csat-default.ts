import { i18nFor } from "../../i18n/server";
import type { Lang } from "../../i18n/shared";
import type { ConnectionModel } from "./model";

/** The satisfaction survey a connection sends unless told otherwise, in `lang`, with `{{name}}` left to fill in. */
export function defaultCsatMessage(lang: Lang): string {
  return i18nFor(lang).t("csat.defaultMessage", { name: "{{name}}" });
}

/**
 * A new connection without a survey text gets the default one in the language of its automatic texts when it
 * names one, else in the language of whoever created it.
 */
export function withDefaultSurvey(input: ConnectionModel.Create, lang: Lang): ConnectionModel.Create {
  return input.csatMessage?.trim() ? input : { ...input, csatMessage: defaultCsatMessage(input.language ?? lang) };
}
