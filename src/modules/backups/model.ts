import { t } from "elysia";

export namespace BackupModel {
  export const params = t.Object({ name: t.String({ maxLength: 100 }) });
  /** The access token, for download links that can't carry a header. */
  export const query = t.Object({ token: t.Optional(t.String({ maxLength: 4096 })) });
}
