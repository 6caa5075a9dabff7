import { t } from "elysia";
import { listQuery } from "../../http/list-query";
import { fields } from "../../http/fields";
import { schemaOf } from "../../http/contract-schema";
import type { NewUser, UserChanges } from "../../shared/contracts/users";

const profile = t.Union([t.Literal("admin"), t.Literal("user")]);
const queueIds = t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 });
/** The user's connection; the whaticket family's clients send 0, "", false or null for none. */
const connectionId = t.Union([t.Integer({ minimum: 1 }), t.Null(), t.Literal(0), t.Literal(""), t.Literal(false)]);
/** What the services take for the connection: an id, or null for none. */
type Connection = { whatsappId?: number | null };

export namespace UserModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const create = schemaOf<NewUser>()(
    t.Object({
      name: fields.userName(),
      email: fields.email(),
      password: fields.password(),
      profile: t.Optional(profile),
      whatsappId: t.Optional(connectionId),
      queueIds: t.Optional(queueIds),
    }),
  );
  export type Create = Omit<NewUser, "whatsappId"> & Connection;

  export const update = schemaOf<UserChanges>()(
    t.Object({
      name: fields.userName({ optional: true }),
      email: fields.email({ optional: true }),
      password: t.Optional(t.String({ maxLength: 50 })),
      currentPassword: t.Optional(t.String({ maxLength: 200 })),
      profile: t.Optional(profile),
      whatsappId: t.Optional(connectionId),
      queueIds: t.Optional(queueIds),
    }),
  );
  export type Update = Omit<UserChanges, "whatsappId"> & Connection;
}
