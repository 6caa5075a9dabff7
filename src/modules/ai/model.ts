import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { AI_FEATURES, type AiReplyToTranslate, type AiSettingsUpdate } from "../../shared/contracts/ai";

export namespace AiModel {
  export const update = schemaOf<AiSettingsUpdate>()(
    t.Object({
      enabled: t.Optional(t.Boolean()),
      baseUrl: t.Optional(t.String({ maxLength: 500 })),
      apiKey: t.Optional(t.String({ maxLength: 500 })),
      model: t.Optional(t.String({ maxLength: 200 })),
      features: t.Optional(t.Array(t.UnionEnum(AI_FEATURES), { maxItems: AI_FEATURES.length })),
      timeoutMs: t.Optional(t.Integer({ minimum: 100, maximum: 120_000 })),
      perMinute: t.Optional(t.Integer({ minimum: 0, maximum: 10_000 })),
      dailyTokens: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000 })),
      includeNotes: t.Optional(t.Boolean()),
      autoSummary: t.Optional(t.Boolean()),
      botQueueIds: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 })),
      botKnowledge: t.Optional(t.String({ maxLength: 20_000 })),
      botMaxTurns: t.Optional(t.Integer({ minimum: 1, maximum: 50 })),
    }),
  );

  export const replyToTranslate = schemaOf<AiReplyToTranslate>()(
    t.Object({ text: t.String({ minLength: 1, maxLength: 4096 }) }),
  );
}
