import { LANG_COOKIE, type Lang, pickLang } from "../i18n/shared";

/** The caller's interface language: their `lang` cookie, else their Accept-Language, else English. */
export function requestLang(request: Request): Lang {
  return pickLang(
    request.headers.get("accept-language"),
    LANG_FROM_COOKIE.exec(request.headers.get("cookie") ?? "")?.[1],
  );
}

const LANG_FROM_COOKIE = new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([a-z]{2})`);
