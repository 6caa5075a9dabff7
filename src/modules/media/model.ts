import { t } from "elysia";

export namespace MediaModel {
  /** A signed link's expiry (epoch seconds) and signature. */
  export const query = t.Object({
    expires: t.Optional(t.Integer({ minimum: 0 })),
    signature: t.Optional(t.String({ maxLength: 128 })),
  });
}
