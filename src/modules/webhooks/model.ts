import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import type { NewWebhook, WebhookChanges } from "../../shared/contracts/webhooks";

const id = t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const events = t.Array(t.String({ maxLength: 50 }), { maxItems: 20 });

export namespace WebhookModel {
  export const deliveriesQuery = t.Object({
    endpointId: t.Optional(id),
    pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
  });
  export type Deliveries = typeof deliveriesQuery.static;

  export const create = schemaOf<NewWebhook>()(
    t.Object({ url: t.String({ maxLength: 2000 }), events, active: t.Optional(t.Boolean()) }),
  );
  export type Create = NewWebhook;

  export const update = schemaOf<WebhookChanges>()(t.Partial(create));
  export type Update = WebhookChanges;
}
