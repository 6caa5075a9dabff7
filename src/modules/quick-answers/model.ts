import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { listQuery } from "../../http/list-query";
import { str } from "../../http/fields";
import type { NewQuickAnswer, QuickAnswerChanges } from "../../shared/contracts/quick-answers";
import { FORM_RULES } from "../../shared/validation";

export namespace QuickAnswerModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const create = schemaOf<NewQuickAnswer>()(
    t.Object({
      shortcut: str(FORM_RULES.quickAnswer.shortcut),
      message: str(FORM_RULES.quickAnswer.message),
    }),
  );
  export type Create = NewQuickAnswer;

  export const update = schemaOf<QuickAnswerChanges>()(t.Partial(create));
  export type Update = QuickAnswerChanges;
}
