import { useState } from "react";
import type { UserChanges } from "../../src/shared/contracts";
import { callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";

/** The user modal for oneself (menu → Profile): name, email and an optional new password, which needs the current one (PUT /users/:id). */
export function ProfileModal({
  userId,
  name,
  email,
  onClose,
}: {
  userId: number;
  name: string;
  email: string;
  onClose: () => void;
}) {
  const t = useT();
  const [form, setForm] = useState<Required<Pick<UserChanges, "name" | "email" | "password" | "currentPassword">>>({
    name,
    email,
    password: "",
    currentPassword: "",
  });
  const { busy, fieldError, run } = useFormSave(false, undefined, ["name", "email", "password", "currentPassword"]);

  function save() {
    return run(async () => {
      const passwordChange = form.password ? { password: form.password, currentPassword: form.currentPassword } : {};
      await callApi("PUT /users/:id", {
        params: { id: userId },
        body: { name: form.name, email: form.email, ...passwordChange },
      });
      toast("success", t("agent.profile.saved"));
      // The app bar and boot data carry the name and email: reload so every island shows the new ones.
      location.reload();
    });
  }

  const input = (k: keyof typeof form, type: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={`profile-${k}`}>{t(`agent.profile.${k}`)}</label>
      <input
        id={`profile-${k}`}
        type={type}
        autoComplete={autoComplete}
        value={form[k]}
        maxLength={k === "email" ? 320 : k === "currentPassword" ? 200 : 50}
        aria-invalid={fieldError?.field === k || undefined}
        onChange={(e) => setForm({ ...form, [k]: e.target.value })}
      />
      {fieldError?.field === k && <p className="field-error">{fieldError.text}</p>}
    </div>
  );
  return (
    <Modal title={t("agent.profile.title")} onClose={onClose} onSubmit={save} busy={busy}>
      {input("name", "text", "name")}
      {input("email", "email", "email")}
      {input("password", "password", "new-password")}
      {form.password && input("currentPassword", "password", "current-password")}
    </Modal>
  );
}
