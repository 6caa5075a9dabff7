import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { fields, str } from "../../http/fields";
import type { LoginCredentials, NewAccount } from "../../shared/contracts/auth";
import { RULES } from "../../shared/validation";

export namespace AuthModel {
  export const login = schemaOf<LoginCredentials>()(
    t.Object({
      email: str(RULES.loginEmail),
      password: str(RULES.loginPassword),
    }),
  );

  export const signup = schemaOf<NewAccount>()(
    t.Object({
      name: fields.userName(),
      email: fields.email(),
      password: fields.password(),
    }),
  );
}
