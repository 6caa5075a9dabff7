import { useState, type FormEvent } from "react";
import { checkForm, type FieldProblem, FORM_RULES } from "../src/shared/validation";
import { PasswordField, TextField } from "./PasswordField";
import type { LoginCredentials } from "../src/shared/contracts";
import { callApi, setToken } from "./lib/api";
import { useFormSave } from "./lib/crud";
import { ruleText } from "./lib/errors";
import { useT } from "./lib/i18n-context";
import { toast } from "./lib/toast";

const LOGIN_RULES = FORM_RULES.login;

/** /login form: email, password with show/hide, field validation, toasts; success goes to /tickets. */
export default function LoginForm() {
  const t = useT();
  const [values, setValues] = useState<LoginCredentials>({ email: "", password: "" });
  const [errors, setErrors] = useState<Partial<Record<"email" | "password", FieldProblem>>>({});
  const { busy, run } = useFormSave();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = checkForm(LOGIN_RULES, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    await run(async () => {
      const res = await callApi("POST /auth/login", { body: values, noAuthRedirect: true });
      setToken(res.token);
      toast("success", t("login.success"));
      location.assign("/tickets");
    });
  }

  const set = (k: "email" | "password") => (v: string) => setValues({ ...values, [k]: v });
  const msg = (k: "email" | "password") => (errors[k] ? ruleText(t, errors[k].rule) : undefined);
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <TextField
        id="email"
        label={t("login.email")}
        type="email"
        autoComplete="email"
        value={values.email}
        error={msg("email")}
        onChange={set("email")}
      />
      <PasswordField
        id="password"
        label={t("login.password")}
        autoComplete="current-password"
        value={values.password}
        error={msg("password")}
        onChange={set("password")}
      />
      <button className="button primary" type="submit" disabled={busy}>
        {t("login.submit")}
      </button>
      <a className="auth-link" href="/signup">
        {t("login.signupLink")}
      </a>
    </form>
  );
}
