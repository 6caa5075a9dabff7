import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import type { BulkSettingsChanges } from "../../shared/contracts/bulk";

const count = (max: number) => t.Optional(t.Integer({ minimum: 0, maximum: max }));

export namespace SettingsMessageModel {
  export const params = t.Object({ whatsappId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

  export const save = schemaOf<BulkSettingsChanges>()(
    t.Object({
      whatsappId: t.Integer({ minimum: 1 }),
      limit: count(1_000_000),
      minutes: count(100_000),
      seconds: count(1_000),
      contacts: t.Optional(t.Boolean()),
      /** The seed client's name for `contacts`. */
      contact: t.Optional(t.Boolean()),
      photo: t.Optional(t.Boolean()),
      random: t.Optional(t.Boolean()),
      optOut: t.Optional(t.String({ maxLength: 1000 })),
    }),
  );
  export type Save = BulkSettingsChanges;
}
