import { t } from "elysia";

export namespace SettingModel {
  export const params = t.Object({ key: t.String({ maxLength: 100 }) });
  export const update = t.Object({ value: t.String({ maxLength: 200 }) });
}
