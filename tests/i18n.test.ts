import { describe, expect, test } from "bun:test";
import { i18nFor, LOCALES } from "../src/i18n/server";
import { createI18n } from "../src/i18n/instance";
import { pickLang } from "../src/i18n/shared";
import { ERROR_CODES } from "../src/shared/error-codes";
import { RULE_CODES } from "../src/shared/validation";

function keys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe("locales", () => {
  test("pt and es have every key of en, and no key en lacks", () => {
    const en = keys(LOCALES.en).sort();
    expect(keys(LOCALES.pt).sort()).toEqual(en);
    expect(keys(LOCALES.es).sort()).toEqual(en);
  });

  test("no translation is empty", () => {
    for (const lng of ["pt", "en", "es"] as const) {
      const flat = keys(LOCALES[lng]);
      for (const k of flat)
        expect(k.split(".").reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], LOCALES[lng])).not.toBe("");
    }
  });

  test("every field rule code the server can answer is translated in every language", () => {
    for (const lng of ["en", "pt", "es"] as const) {
      const rules = (LOCALES[lng].validation as { rules: Record<string, string> }).rules;
      expect(RULE_CODES.filter((code) => !rules[code])).toEqual([]);
    }
  });

  test("the pt forms keep the product's wording of their field messages", () => {
    type Forms = Record<string, Record<string, Record<string, string>>>;
    const pt = LOCALES.pt.validation as { rules: Record<string, string>; forms: Forms };
    expect(pt.rules.required).toBe("Obrigatório");
    expect(pt.forms.schedule?.body?.min).toBe("Mensagem muito curta");
    expect(pt.forms.tag?.name?.min).toBe("Mensagem muito curta");
  });

  test("every error code the server can answer is translated in every language, and no translation names an unknown code", () => {
    for (const lng of ["en", "pt", "es"] as const) {
      const errors = LOCALES[lng].errors as Record<string, string>;
      expect(ERROR_CODES.filter((code) => !errors[code])).toEqual([]);
      expect(
        Object.keys(errors).filter((c) => c.startsWith("ERR_") && !(ERROR_CODES as readonly string[]).includes(c)),
      ).toEqual([]);
    }
  });
});

describe("language choice", () => {
  test("the user's cookie wins over Accept-Language", () => {
    expect(pickLang("pt-BR,pt;q=0.9", "es")).toBe("es");
  });

  test("Accept-Language picks the best supported language by quality", () => {
    expect(pickLang("fr-FR,es;q=0.8,pt;q=0.9", undefined)).toBe("pt");
    expect(pickLang("es-AR", undefined)).toBe("es");
  });

  test("unknown or missing languages fall back to English", () => {
    expect(pickLang("de-DE,fr;q=0.5", "xx")).toBe("en");
    expect(pickLang(undefined, undefined)).toBe("en");
    expect(pickLang(";;q=abc,", undefined)).toBe("en");
  });

  test("an instance initialises synchronously and falls back to English for missing keys", () => {
    const i18n = createI18n("pt", {
      pt: { translation: { a: "olá" } },
      en: { translation: { a: "hi", b: "only en" } },
    });
    expect(i18n.t("a")).toBe("olá");
    expect(i18n.t("b")).toBe("only en");
  });

  test("the server's texts with values are those i18next writes, each for its own values", () => {
    const t = i18nFor("pt").t;
    const fresh = createI18n("pt", { pt: { translation: LOCALES.pt }, en: { translation: LOCALES.en } }).t;
    for (const n of [1, 2, 1, 2]) expect(t("tickets.unread", { n })).toBe(fresh("tickets.unread", { n }));
    for (const name of ["Ana", "Bia", "<b>Ana</b>", "Ana"])
      expect(t("page.welcome", { name })).toBe(fresh("page.welcome", { name }));
    expect(t("page.welcome", { name: "Ana" })).not.toBe(t("page.welcome", { name: "Bia" }));
  });
});
