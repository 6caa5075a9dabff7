import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { listQuery } from "../../http/list-query";
import { str } from "../../http/fields";
import type { NewTag, TagChanges } from "../../shared/contracts/tags";
import { FORM_RULES } from "../../shared/validation";

export namespace TagModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const create = schemaOf<NewTag>()(
    t.Object({ name: str(FORM_RULES.tag.name), color: str(FORM_RULES.tag.color) }),
  );
  export type Create = NewTag;

  export const update = schemaOf<TagChanges>()(t.Partial(create));
  export type Update = TagChanges;

  export const listAllQuery = t.Object({ searchParam: t.Optional(t.String({ maxLength: 200 })) });
}
