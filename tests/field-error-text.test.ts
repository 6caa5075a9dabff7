import { describe, expect, test } from "bun:test";
import { ApiError } from "../islands/lib/api";
import { errorText, ruleText } from "../islands/lib/errors";
import { LOCALES } from "../src/i18n/server";
import { createI18n } from "../src/i18n/instance";

const tFor = (lng: "en" | "pt" | "es") =>
  createI18n(lng, { [lng]: { translation: LOCALES[lng] }, en: { translation: LOCALES.en } }).t;
const fieldError = (field: string, rule: string) => new ApiError(400, "VALIDATION", field, rule);

describe("field error texts in the forms", () => {
  test("a server field error reads as its rule in the reader's language, never the server's wording", () => {
    expect(errorText(tFor("en"), fieldError("sendAt", "required"), "schedule")).toBe("Required");
    expect(errorText(tFor("en"), fieldError("sendAt", "future"), "schedule")).toBe("The date must be in the future");
    expect(errorText(tFor("pt"), fieldError("sendAt", "future"), "schedule")).toBe("A data deve ser no futuro");
    expect(errorText(tFor("es"), fieldError("name", "min"))).toBe("¡Muy corto!");
  });

  test("a form's own wording of a rule applies only in that form", () => {
    expect(errorText(tFor("pt"), fieldError("body", "min"), "schedule")).toBe("Mensagem muito curta");
    expect(errorText(tFor("en"), fieldError("body", "min"), "schedule")).toBe("Message too short");
    expect(ruleText(tFor("pt"), "min", "name", "tag")).toBe("Mensagem muito curta");
    expect(ruleText(tFor("pt"), "min", "name")).toBe("Muito curto!");
  });

  test("other errors still read as their code's translation", () => {
    expect(errorText(tFor("en"), new ApiError(400, "ERR_NO_TAG_FOUND"))).toBe(LOCALES.en.errors.ERR_NO_TAG_FOUND);
    expect(errorText(tFor("en"), new ApiError(400, "ERR_SOMETHING_NEW"))).toBe("ERR_SOMETHING_NEW");
  });
});
