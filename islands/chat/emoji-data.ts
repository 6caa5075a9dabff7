import { PEOPLE, SMILEYS } from "./emoji/faces";
import { OBJECTS, SYMBOLS } from "./emoji/things";
import { ACTIVITIES, FOOD, NATURE, TRAVEL } from "./emoji/world";

/**
 * The emoji the picker offers, by category, each with a few words to find it by in English, Portuguese and Spanish
 * (`emoji english words|palavras em português|palabras en español`, one a line). Loaded only when the picker opens.
 */

export const EMOJI_CATEGORIES = [
  "smileys",
  "people",
  "nature",
  "food",
  "activities",
  "travel",
  "objects",
  "symbols",
] as const;
export type EmojiCategory = (typeof EMOJI_CATEGORIES)[number];

export interface EmojiEntry {
  emoji: string;
  category: EmojiCategory;
  /** The words of every language, lower case and without accents, to match a search against. */
  words: string;
}

const TABLE: Record<EmojiCategory, string> = {
  smileys: SMILEYS,
  people: PEOPLE,
  nature: NATURE,
  food: FOOD,
  activities: ACTIVITIES,
  travel: TRAVEL,
  objects: OBJECTS,
  symbols: SYMBOLS,
};

/** Lower case without accents, so "coracao" finds "coração". */
export function searchable(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Every emoji of the table, in category order. */
export const EMOJI: EmojiEntry[] = EMOJI_CATEGORIES.flatMap((category) =>
  TABLE[category]
    .trim()
    .split("\n")
    .map((line) => {
      const space = line.indexOf(" ");
      return { emoji: line.slice(0, space), category, words: searchable(line.slice(space + 1).replaceAll("|", " ")) };
    }),
);

/** The emoji whose words in any of the three languages start with each word of `query` (all of them). */
export function findEmoji(query: string): EmojiEntry[] {
  const terms = searchable(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  return EMOJI.filter((entry) => {
    const words = entry.words.split(/[\s-]+/);
    return terms.every((term) => words.some((word) => word.startsWith(term)));
  });
}
