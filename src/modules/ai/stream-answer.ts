import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";

/**
 * An answer of text pieces as server-sent events: `data: {"text": …}` per piece, then `data: {"done": true}`,
 * or `data: {"error": CODE}` when the source fails midway. A reader that goes away stops the source.
 */
export function eventStream(pieces: AsyncGenerator<string>, deps: Pick<AppDeps, "log">): Response {
  const encoder = new TextEncoder();
  const frame = (value: object) => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await pieces.next();
        if (next.done) {
          controller.enqueue(frame({ done: true }));
          controller.close();
        } else controller.enqueue(frame({ text: next.value }));
      } catch (error) {
        if (!(error instanceof AppError)) deps.log.warn("AI answer failed", { error });
        controller.enqueue(frame({ error: error instanceof AppError ? error.code : "ERR_INTERNAL" }));
        controller.close();
      }
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" },
  });
}
