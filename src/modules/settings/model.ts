import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import type { SettingValue } from "../../shared/contracts/settings";

export namespace SettingModel {
  export const params = t.Object({ key: t.String({ maxLength: 100 }) });
  export const update = schemaOf<SettingValue>()(t.Object({ value: t.String({ maxLength: 200 }) }));
}
