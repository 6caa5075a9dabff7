import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { requestLang } from "../../http/request-lang";
import type { AiFeature } from "../../shared/contracts/ai";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { suggestReply, summarizeTicket } from "./assist";
import { testEndpoint } from "./check";
import { AiModel } from "./model";
import { aiSettingsDto, readAiConfig, updateAiSettings } from "./settings";
import { eventStream } from "./stream-answer";
import { translateMessage, translateReply } from "./translate";
import { aiUsage } from "./usage";

/** /ai: the AI settings, their test and the usage (admins); the assistance on a ticket (who may see or send on it). */
export function aiRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get("/ai/settings", async () => aiSettingsDto(await readAiConfig(deps.db)), { auth: "settings:manage" })
    .put("/ai/settings", async ({ body }) => await updateAiSettings(deps.db, body), {
      auth: "settings:manage",
      body: AiModel.update,
    })
    .post("/ai/test", async () => await testEndpoint(deps), { auth: "settings:manage" })
    .get("/ai/usage", async () => await aiUsage(deps, await readAiConfig(deps.db)), { auth: "settings:manage" })
    .get("/ai/features", async () => ({ features: await availableFeatures(deps) }), { auth: true })
    .post(
      "/tickets/:id/ai/suggest",
      async ({ user, params }) => eventStream(await suggestReply(deps, user, params.id), deps),
      { auth: true, params: idParam },
    )
    .post(
      "/messages/:id/ai/translate",
      async ({ user, params, request }) => await translateMessage(deps, user, params.id, requestLang(request)),
      { auth: true, params: idParam },
    )
    .post(
      "/tickets/:id/ai/translate-reply",
      async ({ user, params, body }) => await translateReply(deps, user, params.id, body.text),
      { auth: true, params: idParam, body: AiModel.replyToTranslate },
    )
    .post(
      "/tickets/:id/ai/summary",
      async ({ user, params, request }) => await summarizeTicket(deps, user, params.id, requestLang(request)),
      { auth: true, params: idParam },
    );
}

/** The features an agent may use now: none while the assistance is off. */
async function availableFeatures(deps: AppDeps): Promise<AiFeature[]> {
  const config = await readAiConfig(deps.db);
  return config.enabled && config.baseUrl && config.model ? config.features : [];
}
