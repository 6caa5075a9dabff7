import { useState, type FormEvent } from "react";
import { FORM_RULES } from "../src/shared/validation";
import { PasswordField, TextField } from "./PasswordField";
import type { NewAccount } from "../src/shared/contracts";
import { callApi } from "./lib/api";
import { useFormSave } from "./lib/crud";
import { useFieldChecks } from "./lib/field-checks";
import { useT } from "./lib/i18n-context";
import { toast } from "./lib/toast";

type Field = keyof typeof FORM_RULES.signup;

/** /signup form (name, email, password with show/hide); a disabled notice when the userCreation setting is off. */
export default function SignupForm({ enabled }: { enabled: boolean }) {
  const t = useT();
  const [values, setValues] = useState<NewAccount>({ name: "", email: "", password: "" });
  const { busy, run } = useFormSave();
  const checks = useFieldChecks(FORM_RULES.signup, values);

  if (!enabled) {
    return (
      <div className="auth-form">
        <p className="notice" role="status">
          {t("signup.disabled")}
        </p>
        <a className="auth-link" href="/login">
          {t("signup.loginLink")}
        </a>
      </div>
    );
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!checks.checkAll()) return;
    await run(async () => {
      await callApi("POST /auth/signup", { body: values, noAuthRedirect: true });
      toast("success", t("signup.success"));
      location.assign("/login");
    });
  }

  const set = (k: Field) => (v: string) => {
    setValues({ ...values, [k]: v });
    checks.touch(k);
  };
  const msg = (k: Field) => checks.error(k) ?? undefined;
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <TextField
        id="name"
        label={t("signup.name")}
        autoComplete="name"
        value={values.name}
        error={msg("name")}
        onChange={set("name")}
      />
      <TextField
        id="email"
        label={t("signup.email")}
        type="email"
        autoComplete="email"
        value={values.email}
        error={msg("email")}
        onChange={set("email")}
      />
      <PasswordField
        id="password"
        label={t("signup.password")}
        autoComplete="new-password"
        value={values.password}
        error={msg("password")}
        onChange={set("password")}
      />
      <button className="button primary" type="submit" disabled={busy}>
        {t("signup.submit")}
      </button>
      <a className="auth-link" href="/login">
        {t("signup.loginLink")}
      </a>
    </form>
  );
}
