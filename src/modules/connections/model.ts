import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { oneOf, str } from "../../http/fields";
import { CONNECTION_LANGUAGES, type ConnectionChanges, type NewConnection } from "../../shared/contracts/connections";
import { FORM_RULES, HOUR_RULE } from "../../shared/validation";
import { PROVIDERS } from "../../shared/contracts/providers";

const text = (max = 30000) => t.Optional(t.String({ maxLength: max }));
const hour = t.Optional(t.String({ pattern: HOUR_RULE.pattern.source, maxLength: 5, rule: HOUR_RULE }));
const flag = t.Optional(t.Boolean());

export namespace ConnectionModel {
  export const create = schemaOf<NewConnection>()(
    t.Object({
      name: str(FORM_RULES.connection.name),
      provider: t.Optional(oneOf(PROVIDERS)),
      isDefault: flag,
      isMultidevice: flag,
      greetingMessage: text(),
      farewellMessage: text(),
      transferTicketMessage: text(),
      outOfWorkMessage: text(),
      csatEnabled: flag,
      csatMessage: text(),
      wavoip: text(500),
      defineWorkHours: flag,
      startWorkHour: hour,
      endWorkHour: hour,
      startWorkHourWeekend: hour,
      endWorkHourWeekend: hour,
      monday: flag,
      tuesday: flag,
      wednesday: flag,
      thursday: flag,
      friday: flag,
      saturday: flag,
      sunday: flag,
      /** Import the chat history the phone sends at pairing: the last `importHistoryDays` days, as closed tickets. */
      importHistory: flag,
      importHistoryDays: t.Optional(t.Integer({ minimum: 1, maximum: 365 })),
      language: t.Optional(oneOf(CONNECTION_LANGUAGES)),
      queueIds: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 })),
      phoneNumberId: t.Optional(t.String({ maxLength: 64, pattern: "^[0-9]*$" })),
      businessAccountId: t.Optional(t.String({ maxLength: 64, pattern: "^[0-9]*$" })),
      accessToken: text(1000),
      appSecret: text(200),
      verifyToken: text(200),
    }),
  );
  export type Create = NewConnection;

  export const update = schemaOf<ConnectionChanges>()(t.Partial(create));
  export type Update = ConnectionChanges;
}
