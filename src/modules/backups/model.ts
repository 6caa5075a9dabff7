import { t } from "elysia";

export namespace BackupModel {
  export const params = t.Object({ name: t.String({ maxLength: 100 }) });
  /** A signed download link's expiry (epoch seconds) and signature. */
  export const query = t.Object({
    expires: t.Optional(t.Integer({ minimum: 0 })),
    signature: t.Optional(t.String({ maxLength: 128 })),
  });
}
