import { describe, expect, test } from "bun:test";
import { EMOJI, EMOJI_CATEGORIES, findEmoji } from "../islands/chat/emoji-data";

describe("the emoji picker's table", () => {
  test("offers a few hundred emoji, each once, in every category", () => {
    expect(EMOJI.length).toBeGreaterThanOrEqual(300);
    expect(new Set(EMOJI.map((e) => e.emoji)).size).toBe(EMOJI.length);
    for (const category of EMOJI_CATEGORIES) {
      expect(EMOJI.filter((e) => e.category === category).length).toBeGreaterThanOrEqual(20);
    }
    expect(EMOJI.every((e) => /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u.test(e.emoji))).toBe(true);
  });

  test("search finds an emoji by the start of its words in English, Portuguese or Spanish, with or without accents", () => {
    for (const query of ["heart", "coração", "coracao", "corazón", "Corazon"]) {
      expect(findEmoji(query).map((e) => e.emoji)).toContain("❤️");
    }
    expect(findEmoji("thumbs up").map((e) => e.emoji)).toEqual(["👍"]);
    expect(findEmoji("obrigado").map((e) => e.emoji)).toContain("🙏");
    expect(findEmoji("gracias").map((e) => e.emoji)).toContain("🙏");
    expect(findEmoji("caminhão entrega").map((e) => e.emoji)).toEqual(["🚚"]);
    expect(findEmoji("zzzznothing")).toEqual([]);
    expect(findEmoji("   ")).toEqual([]);
  });
});
