/**
 * The `data:` payloads of a server-sent event stream, one per event (multi-line data joined by "\n"), until the
 * stream ends. Comments, `event:` and `id:` lines are skipped.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = eventEnd(buffer);
    while (end) {
      const data = dataOf(buffer.slice(0, end.at));
      buffer = buffer.slice(end.at + end.length);
      if (data !== null) yield data;
      end = eventEnd(buffer);
    }
  }
  const rest = dataOf(buffer + decoder.decode());
  if (rest !== null) yield rest;
}

function eventEnd(buffer: string): { at: number; length: number } | null {
  const match = /\r?\n\r?\n/.exec(buffer);
  return match ? { at: match.index, length: match[0].length } : null;
}

function dataOf(event: string): string | null {
  const lines = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""));
  return lines.length ? lines.join("\n") : null;
}
