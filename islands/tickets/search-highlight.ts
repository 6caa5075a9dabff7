/** The shortest word the server looks up in messages (see bodyMatchQuery): shorter ones are not marked either. */
const MIN_WORD = 2;

/** Characters before the first match kept in a snippet, so the match shows in a one-line row. */
const LEAD = 24;

/** One piece of a text: matched or not. */
export interface Piece {
  text: string;
  match: boolean;
}

const fold = (c: string) => c.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * `text` cut into pieces with the words that start with a searched word marked, as the server matched them (case
 * and accents aside); a long text starts shortly before its first match ("…").
 */
export function highlightPieces(text: string, search: string): Piece[] {
  const words = (fold(search).match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= MIN_WORD);
  const chars = [...text];
  const folded = chars.map(fold);
  const marked = new Array<boolean>(chars.length).fill(false);
  for (let i = 0; i < chars.length; i++) {
    if (i > 0 && /[\p{L}\p{N}]/u.test(folded[i - 1]!)) continue;
    for (const word of words) {
      const end = matchEnd(folded, i, word);
      if (end > i) for (let k = i; k < end; k++) marked[k] = true;
    }
  }
  const first = marked.indexOf(true);
  const start = first > LEAD ? first - LEAD + 1 : 0;
  const pieces: Piece[] = start > 0 ? [{ text: "…", match: false }] : [];
  for (let i = start; i < chars.length; i++) {
    const last = pieces.at(-1);
    if (last && last.text !== "…" && last.match === marked[i]) last.text += chars[i];
    else pieces.push({ text: chars[i]!, match: marked[i]! });
  }
  if (start > 0 && pieces[1] && !pieces[1].match) pieces[1].text = pieces[1].text.trimStart();
  return pieces;
}

/** Where `word` ends when the folded characters from `at` spell it, else `at`. */
function matchEnd(folded: string[], at: number, word: string): number {
  let spelled = "";
  let i = at;
  while (i < folded.length && spelled.length < word.length) spelled += folded[i++];
  return spelled.startsWith(word) ? i : at;
}
