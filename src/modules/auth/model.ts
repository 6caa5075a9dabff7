import { t } from "elysia";
import { fields, str } from "../../http/fields";
import { RULES } from "../../shared/validation";

export namespace AuthModel {
  export const login = t.Object({
    email: str(RULES.loginEmail),
    password: str(RULES.loginPassword),
  });
  export type Login = typeof login.static;

  export const signup = t.Object({
    name: fields.userName(),
    email: fields.email(),
    password: fields.password(),
  });
  export type Signup = typeof signup.static;
}
