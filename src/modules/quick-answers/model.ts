import { t } from "elysia";
import { listQuery } from "../../http/list-query";
import { str } from "../../http/fields";
import { FORM_RULES } from "../../shared/validation";

export namespace QuickAnswerModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const create = t.Object({
    shortcut: str(FORM_RULES.quickAnswer.shortcut),
    message: str(FORM_RULES.quickAnswer.message),
  });
  export type Create = typeof create.static;

  export const update = t.Partial(create);
  export type Update = typeof update.static;
}
