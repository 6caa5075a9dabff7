import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import type { AiFeature } from "../../shared/contracts/ai";
import type { ErrorCode } from "../../shared/error-codes";
import type { AiConfig } from "./settings";
import { sseData } from "../../shared/sse";
import { beginCall, type CallStart, endCall } from "./usage";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface AiRequest extends CallStart {
  messages: ChatMessage[];
  maxTokens?: number;
  /** Functions the model may call instead of answering (no arguments): their names come back in `toolCalls`. */
  tools?: { name: string; description: string }[];
}

/** What the model answered: its text and the functions it called. */
interface Answer {
  text: string;
  usage: Usage | null;
  toolCalls: string[];
}

type Deps = Pick<AppDeps, "db" | "clock" | "config" | "log">;

/** Past this many characters an answer is cut: the rest is never read (a model that does not stop). */
export const MAX_ANSWER_CHARS = 16_000;
/** A non-streamed answer larger than this is not a chat completion. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Refuses when the AI assistance is off, not configured, or `feature` is not switched on. */
export function assertUsable(config: AiConfig, feature: AiFeature | "test") {
  if (!config.baseUrl || !config.model) throw new AppError("ERR_AI_NOT_CONFIGURED");
  if (feature === "test") return;
  if (!config.enabled || !config.features.includes(feature)) throw new AppError("ERR_AI_DISABLED");
}

/** The whole answer of a chat completion, not streamed. */
export async function complete(deps: Deps, config: AiConfig, request: AiRequest): Promise<string> {
  return (await completeWithTools(deps, config, request)).text;
}

/** The whole answer, not streamed, with the names of the functions the model called. */
export async function completeWithTools(
  deps: Deps,
  config: AiConfig,
  request: AiRequest,
): Promise<{ text: string; toolCalls: string[] }> {
  const toolCalls: string[] = [];
  let text = "";
  for await (const piece of streamCompletion(deps, config, request, false, toolCalls)) text += piece;
  return { text, toolCalls };
}

/**
 * A chat completion from `${baseUrl}/chat/completions`, its text yielded as it arrives (SSE when `stream`).
 * Within the installation's limits, cut after `timeoutMs` (the whole call) and after MAX_ANSWER_CHARS; every
 * call is recorded with its tokens (the answer's `usage`, else estimated from the text). Fails with an AppError
 * whose code says what went wrong: unreachable, key rejected, timeout, an error status, an unreadable answer.
 */
export async function* streamCompletion(
  deps: Deps,
  config: AiConfig,
  request: AiRequest,
  stream = true,
  toolCalls: string[] = [],
): AsyncGenerator<string> {
  const callId = await beginCall(deps, config, request);
  const startedAt = deps.clock.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), config.timeoutMs);
  const answer: Answer = { text: "", usage: null, toolCalls };
  let failure: ErrorCode | null = null;
  try {
    const res = await post(config, request, stream, abort.signal);
    const pieces = isEventStream(res) ? streamedPieces(res, answer) : wholePiece(res, answer);
    for await (const piece of pieces) {
      const room = MAX_ANSWER_CHARS - answer.text.length;
      answer.text += piece.slice(0, room);
      if (piece) yield piece.slice(0, room);
      if (room <= piece.length) break;
    }
    // A function call is an answer only to a request that offered functions.
    if (!answer.text.trim() && !(request.tools?.length && toolCalls.length))
      throw new AppError("ERR_AI_BAD_ANSWER", 502);
  } catch (error) {
    const refusal = asRefusal(error, abort.signal);
    failure = refusal.code;
    throw refusal;
  } finally {
    clearTimeout(timer);
    abort.abort();
    const tokens = tokensOf(request, answer);
    await endCall(
      deps,
      callId,
      startedAt,
      failure ? { ...tokens, ok: false, error: failure } : { ...tokens, ok: true },
    );
  }
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

async function post(config: AiConfig, request: AiRequest, stream: boolean, signal: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const body = {
    model: config.model,
    messages: request.messages,
    ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
    ...(request.tools?.length ? { tools: request.tools.map(asFunction) } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  let res: Response;
  try {
    res = await fetch(`${config.baseUrl}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal,
      redirect: "manual",
    });
  } catch (error) {
    throw signal.aborted ? new AppError("ERR_AI_TIMEOUT", 504) : unreachable(error);
  }
  if (res.status === 401 || res.status === 403) throw new AppError("ERR_AI_KEY_REJECTED", 502);
  if (!res.ok) throw new AppError("ERR_AI_ENDPOINT_ERROR", 502, { upstreamStatus: res.status });
  return res;
}

const asFunction = ({ name, description }: { name: string; description: string }) => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties: {} } },
});

const unreachable = (error: unknown) =>
  new AppError("ERR_AI_UNREACHABLE", 502, { reason: error instanceof Error ? error.message.slice(0, 200) : "" });

const isEventStream = (res: Response) => (res.headers.get("content-type") ?? "").includes("text/event-stream");

type Call = { function?: { name?: string } };

async function* streamedPieces(res: Response, answer: Answer): AsyncGenerator<string> {
  if (!res.body) throw new AppError("ERR_AI_BAD_ANSWER", 502);
  for await (const data of sseData(res.body)) {
    if (data.trim() === "[DONE]") return;
    const chunk = parsed(data) as {
      choices?: { delta?: { content?: string | null; tool_calls?: Call[] } }[];
      usage?: Usage | null;
    };
    if (chunk.usage) answer.usage = chunk.usage;
    noteCalls(answer, chunk.choices?.[0]?.delta?.tool_calls);
    const content = chunk.choices?.[0]?.delta?.content;
    if (typeof content === "string") yield content;
  }
}

async function* wholePiece(res: Response, answer: Answer): AsyncGenerator<string> {
  const body = parsed(await cappedText(res)) as {
    choices?: { message?: { content?: string | null; tool_calls?: Call[] } }[];
    usage?: Usage;
  };
  answer.usage = body.usage ?? null;
  const message = body.choices?.[0]?.message;
  noteCalls(answer, message?.tool_calls);
  const content = message?.content;
  if (typeof content === "string") yield content;
  else if (!answer.toolCalls.length) throw new AppError("ERR_AI_BAD_ANSWER", 502);
}

function noteCalls(answer: Answer, calls: Call[] | undefined) {
  for (const call of calls ?? []) if (call.function?.name) answer.toolCalls.push(call.function.name);
}

/** The body as text, refused past MAX_BODY_BYTES without reading the rest. */
async function cappedText(res: Response): Promise<string> {
  if (!res.body) return "";
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    if (bytes > MAX_BODY_BYTES) throw new AppError("ERR_AI_BAD_ANSWER", 502);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

function parsed(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object") return value;
  } catch {}
  throw new AppError("ERR_AI_BAD_ANSWER", 502);
}

function asRefusal(error: unknown, signal: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  return signal.aborted ? new AppError("ERR_AI_TIMEOUT", 504) : unreachable(error);
}

/** The answer's own token counts, else about four characters a token. */
function tokensOf(request: AiRequest, answer: Answer) {
  const estimate = (chars: number) => Math.ceil(chars / 4);
  return {
    promptTokens:
      answer.usage?.prompt_tokens ?? estimate(request.messages.reduce((sum, m) => sum + m.content.length, 0)),
    completionTokens: answer.usage?.completion_tokens ?? estimate(answer.text.length),
  };
}
