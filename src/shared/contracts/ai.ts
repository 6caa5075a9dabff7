/** What the AI assistance may be used for; each is switched on in the settings. */
export const AI_FEATURES = ["suggest", "summary", "translate"] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

/** A call's purpose as recorded in the usage (the settings' "Test" and the chatbot's AI step besides the features). */
export type AiCallKind = AiFeature | "test" | "chatbot";

/**
 * GET /ai/settings: the AI assistance as an admin configured it. The API key is never answered: `hasKey` says
 * whether one is stored.
 */
export interface AiSettingsDto {
  enabled: boolean;
  /** An OpenAI-compatible base URL, up to the version: `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseUrl: string;
  model: string;
  features: AiFeature[];
  /** How long one request may take, in ms (20 s by default). */
  timeoutMs: number;
  /** Requests the installation may start per minute (0: no limit). */
  perMinute: number;
  /** Tokens the installation may use per day in its time zone (0: no limit). */
  dailyTokens: number;
  /** Whether private notes go into the prompts (never by default). */
  includeNotes: boolean;
  /** Whether a summary is added as a private note when a ticket is transferred or reopened. */
  autoSummary: boolean;
  /** The queues whose waiting tickets the AI answers first (the chatbot's AI step), before a person takes over. */
  botQueueIds: number[];
  /** What the AI step may answer from, written by the admin (with the quick answers). */
  botKnowledge: string;
  /** The AI step hands over after answering this many messages of one episode of a ticket. */
  botMaxTurns: number;
  hasKey: boolean;
}

/** PUT /ai/settings: the fields to change. `apiKey` replaces the stored key; an empty one removes it. */
export type AiSettingsUpdate = Partial<Omit<AiSettingsDto, "hasKey">> & { apiKey?: string };

/** POST /ai/test: what the model answered to a short question. */
export interface AiTestDto {
  reply: string;
  model: string;
  durationMs: number;
}

/** One recorded call, as the usage card lists it. */
export interface AiCallDto {
  id: number;
  feature: string;
  model: string;
  status: "running" | "ok" | "error";
  error: string | null;
  promptTokens: number;
  completionTokens: number;
  durationMs: number;
  startedAt: number;
}

/** GET /ai/usage: today's figures against the limits, and the latest calls. */
export interface AiUsageDto {
  today: { requests: number; errors: number; promptTokens: number; completionTokens: number };
  dailyTokens: number;
  perMinute: number;
  recent: AiCallDto[];
}

/** POST /tickets/:id/ai/summary. */
export interface AiSummaryDto {
  summary: string;
}

/** POST /messages/:id/ai/translate and POST /tickets/:id/ai/translate-reply: the translated text. */
export interface AiTranslationDto {
  text: string;
}

/** POST /tickets/:id/ai/translate-reply: the agent's draft to put in the customer's language. */
export interface AiReplyToTranslate {
  text: string;
}
