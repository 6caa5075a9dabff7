import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { CLOUD_WEBHOOK_BODY_LIMIT } from "../../http/body-limits";
import { readCapped } from "../../http/body-reader";

const connectionParam = t.Object({ id: t.Numeric({ minimum: 1 }) });

/**
 * /webhooks/whatsapp-cloud/:id, where Meta's app sends a cloud connection's notifications: the subscription
 * handshake (GET) and the signed notifications (POST), answered once they are journaled. No session: the verify
 * token and the app secret's signature are the credentials.
 */
export function cloudWebhookRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/webhooks/whatsapp-cloud" })
    .get(
      "/:id",
      async ({ params, query, set }) => {
        const challenge = await deps.cloud.verify(
          params.id,
          query["hub.mode"],
          query["hub.verify_token"],
          query["hub.challenge"],
        );
        if (challenge === undefined) {
          deps.log.warn("cloud webhook handshake refused", { whatsappId: params.id });
          set.status = 403;
          return "Forbidden";
        }
        set.headers["content-type"] = "text/plain; charset=utf-8";
        return challenge;
      },
      {
        params: connectionParam,
        query: t.Record(t.String(), t.String()),
      },
    )
    .post(
      "/:id",
      async ({ params, request, set }) => {
        const body = await readCapped(request, CLOUD_WEBHOOK_BODY_LIMIT);
        const verdict = await deps.cloud.receive(params.id, body, request.headers.get("x-hub-signature-256"));
        if (verdict === "accepted") {
          // Nodes sharing the database: the one running the connection (maybe not this one) takes it up.
          deps.events.emit("connection.inbound", { connectionId: params.id });
          return { ok: true };
        }
        deps.log.warn("cloud webhook refused", { whatsappId: params.id, verdict });
        set.status = verdict === "unknown" ? 404 : verdict === "forbidden" ? 401 : 400;
        return { error: verdict };
      },
      { params: connectionParam, parse: "none" },
    );
}
