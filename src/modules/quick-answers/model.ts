import { t } from "elysia";
import { str } from "../../http/fields";
import { RULES } from "../../shared/validation";

export namespace QuickAnswerModel {
  export const create = t.Object({
    shortcut: str(RULES.quickAnswerShortcut),
    message: str(RULES.quickAnswerMessage),
  });
  export type Create = typeof create.static;

  export const update = t.Partial(create);
  export type Update = typeof update.static;
}
