/**
 * A local OpenAI-compatible server for tests: `/v1/chat/completions` answers what the test scripted, in order
 * (then `fallback`), plainly or streamed as server-sent events when the request asks for `stream`. It records every
 * request it got, so a test can read the prompts.
 */
export type FakeAnswer =
  /**
   * A completion of this text (streamed in pieces of `chunk` characters when asked), with `usage` when given; a
   * stream stops after `pauseAfter` pieces until the test calls `resume()`.
   */
  | { text: string; usage?: { prompt_tokens: number; completion_tokens: number }; chunk?: number; pauseAfter?: number }
  /** A tool call instead of text. */
  | { toolCall: { name: string; arguments: object } }
  /** An error status with a body. */
  | { status: number; body?: string }
  /** A 200 HTML page, as a web server that is not an API answers. */
  | { html: true }
  /** No answer at all until the request is given up. */
  | { hang: true }
  /** A stream that sends these pieces, then nothing more, never ending. */
  | { stall: string[] }
  /** A stream that goes on until the reader stops reading. */
  | { endless: true };

export interface FakeRequest {
  path: string;
  authorization: string | null;
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: string }[];
    max_tokens?: number;
    [key: string]: unknown;
  };
}

export class FakeOpenAI {
  readonly requests: FakeRequest[] = [];
  private readonly script: FakeAnswer[] = [];
  private readonly server: ReturnType<typeof Bun.serve>;
  /** Streams and waits left open, ended when the server stops. */
  private readonly open = new Set<() => void>();
  private readonly paused: (() => void)[] = [];
  fallback: FakeAnswer = { text: "OK" };
  /** When set, requests without `Authorization: Bearer <key>` get 401. */
  requiredKey: string | null = null;

  constructor() {
    this.server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (req) => this.answer(req) });
  }

  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  get url(): string {
    return `http://127.0.0.1:${this.server.port}/v1`;
  }

  /** Scripts the next answers, in order. */
  reply(...answers: FakeAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  /** Lets a stream paused by `pauseAfter` go on. */
  resume() {
    for (const go of this.paused.splice(0)) go();
  }

  /** Every message content the server was sent, all requests together. */
  promptText(): string {
    return this.requests.flatMap((r) => r.body.messages.map((m) => m.content)).join("\n");
  }

  async stop() {
    this.resume();
    for (const end of this.open) end();
    await this.server.stop(true);
  }

  private async answer(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    if (path !== "/v1/chat/completions" || req.method !== "POST") return new Response("not found", { status: 404 });
    const body = (await req.json()) as FakeRequest["body"];
    const authorization = req.headers.get("authorization");
    this.requests.push({ path, authorization, body });
    if (this.requiredKey !== null && authorization !== `Bearer ${this.requiredKey}`)
      return Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 });
    const answer = this.script.shift() ?? this.fallback;
    if ("status" in answer) return new Response(answer.body ?? "error", { status: answer.status });
    if ("html" in answer)
      return new Response("<!doctype html><html><body>Welcome to nginx!</body></html>", {
        headers: { "content-type": "text/html" },
      });
    if ("hang" in answer) return await this.never(req);
    if ("stall" in answer) return this.sse(req, answer.stall, false);
    if ("endless" in answer) return this.endless(req);
    if ("toolCall" in answer) return this.toolCall(answer.toolCall, body);
    if (body.stream && answer.pauseAfter !== undefined) return this.pausedStream(answer);
    if (body.stream) return this.sse(req, pieces(answer.text, answer.chunk ?? 4), true, answer.usage);
    return Response.json({
      id: "chatcmpl-fake",
      object: "chat.completion",
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" }],
      ...(answer.usage ? { usage: answer.usage } : {}),
    });
  }

  private never(req: Request): Promise<Response> {
    return new Promise((resolve) => {
      const end = () => {
        this.open.delete(end);
        resolve(new Response("gone", { status: 503 }));
      };
      this.open.add(end);
      req.signal.addEventListener("abort", end);
    });
  }

  private sse(req: Request, texts: string[], finish: boolean, usage?: object): Response {
    const encoder = new TextEncoder();
    const frame = (value: unknown) => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
    const delta = (content: string) => ({
      id: "chatcmpl-fake",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    const open = this.open;
    let end = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const text of texts) controller.enqueue(frame(delta(text)));
        if (finish) {
          if (usage) controller.enqueue(frame({ id: "chatcmpl-fake", choices: [], usage }));
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        end = () => {
          open.delete(end);
          try {
            controller.close();
          } catch {}
        };
        open.add(end);
        req.signal.addEventListener("abort", end);
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  }

  /** The first `pauseAfter` pieces of the text, then the rest once the test resumes. */
  private pausedStream(answer: { text: string; chunk?: number; pauseAfter?: number }): Response {
    const all = pieces(answer.text, answer.chunk ?? 4);
    const head = all.slice(0, answer.pauseAfter);
    const tail = all.slice(answer.pauseAfter);
    const waiting = new Promise<void>((go) => this.paused.push(go));
    const encoder = new TextEncoder();
    const frame = (content: string) =>
      encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`);
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const text of head) controller.enqueue(frame(text));
        await waiting;
        for (const text of tail) controller.enqueue(frame(text));
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  }

  private endless(req: Request): Response {
    const encoder = new TextEncoder();
    const piece = encoder.encode(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "la ".repeat(100) } }] })}\n\n`,
    );
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (req.signal.aborted || sent++ > 100_000) return controller.close();
        controller.enqueue(piece);
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  }

  private toolCall(call: { name: string; arguments: object }, body: FakeRequest["body"]): Response {
    const toolCalls = [
      { id: "call_fake", type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } },
    ];
    if (!body.stream)
      return Response.json({
        id: "chatcmpl-fake",
        object: "chat.completion",
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: toolCalls },
            finish_reason: "tool_calls",
          },
        ],
      });
    const encoder = new TextEncoder();
    const chunk = { choices: [{ index: 0, delta: { tool_calls: toolCalls.map((c, index) => ({ index, ...c })) } }] };
    return new Response(encoder.encode(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`), {
      headers: { "content-type": "text/event-stream" },
    });
  }
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
