import { t } from "elysia";
import { listQuery } from "../../http/list-query";
import { str } from "../../http/fields";
import { FORM_RULES } from "../../shared/validation";

export namespace TagModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const create = t.Object({ name: str(FORM_RULES.tag.name), color: str(FORM_RULES.tag.color) });
  export type Create = typeof create.static;

  export const update = t.Partial(create);
  export type Update = typeof update.static;

  export const listAllQuery = t.Object({ searchParam: t.Optional(t.String({ maxLength: 200 })) });
}
