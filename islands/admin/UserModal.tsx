import { useEffect, useState } from "react";
import { FORM_RULES } from "../../src/shared/validation";
import { api, callApi } from "../lib/api";
import { getBoot } from "../lib/boot";
import { useFormSave } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useFieldChecks } from "../lib/field-checks";
import { Input, QueueChecks, Select } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import type { Connection, NewUser, Queue, User, UserChanges } from "../../src/shared/contracts";

/** The form's fields, named as the API takes them; `whatsappId` holds the select's value ("" for none). */
type UserForm = Required<Omit<NewUser, "whatsappId"> & Pick<UserChanges, "currentPassword">> & { whatsappId: string };

/** Add/edit user: name, email, password (optional when editing), profile, queues and default connection. */
export function UserModal({
  user,
  onClose,
  onSaved,
}: {
  user: User | null;
  onClose: () => void;
  onSaved: (u: User) => void;
}) {
  const t = useT();
  const [form, setForm] = useState<UserForm>({
    name: user?.name ?? "",
    email: user?.email ?? "",
    password: "",
    currentPassword: "",
    profile: user?.profile ?? "user",
    whatsappId: user?.whatsappId ? String(user.whatsappId) : "",
    queueIds: user?.queues.map((q) => q.id) ?? [],
  });
  const [queues, setQueues] = useState<Queue[]>([]);
  const [connections, setConnections] = useState<Connection[]>([]);
  const { busy, fieldError, run } = useFormSave(false, undefined, ["name", "email", "password", "currentPassword"]);
  const serverError = (field: string) => (fieldError?.field === field ? fieldError.text : null);
  // Editing keeps the current password when the field is left empty.
  const keepsPassword = !!user && !form.password;
  const checks = useFieldChecks(keepsPassword ? { ...FORM_RULES.user, password: {} } : FORM_RULES.user, form);
  // Changing one's own password needs the current one; an admin resetting someone else's does not.
  const editingSelf = !!user && user.id === getBoot()?.user?.id;

  useEffect(() => {
    Promise.all([api<Queue[]>("/queue"), api<Connection[]>("/whatsapp")])
      .then(([q, c]) => {
        setQueues(q);
        setConnections(c);
      })
      .catch((error) => toast("error", errorText(t, error)));
  }, [t]);

  async function save() {
    if (!checks.checkAll()) return;
    await run(async () => {
      const { password, currentPassword, whatsappId, ...rest } = form;
      const fields = { ...rest, whatsappId: whatsappId ? Number(whatsappId) : null };
      const saved = user
        ? await callApi("PUT /users/:id", {
            params: { id: user.id },
            body: { ...fields, ...(password ? { password, ...(editingSelf ? { currentPassword } : {}) } : {}) },
          })
        : await callApi("POST /users", { body: { ...fields, password } });
      toast("success", t("admin.users.saved"));
      onSaved(saved);
    });
  }

  const set = (key: keyof typeof form) => (value: unknown) => setForm((f) => ({ ...f, [key]: value }));
  const checked = (key: "name" | "email" | "password") => (value: string) => {
    set(key)(value);
    checks.touch(key);
  };
  return (
    <Modal
      variant="admin"
      title={t(user ? "admin.users.editTitle" : "admin.users.addTitle")}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
    >
      <Input
        label={t("admin.common.name")}
        value={form.name}
        onChange={checked("name")}
        onBlur={() => checks.touch("name")}
        error={checks.error("name", fieldError)}
        maxLength={50}
        autoComplete="off"
      />
      <Input
        label={t("admin.users.email")}
        type="email"
        value={form.email}
        onChange={checked("email")}
        onBlur={() => checks.touch("email")}
        error={checks.error("email", fieldError)}
        maxLength={320}
        autoComplete="off"
      />
      <Input
        label={t("admin.users.password")}
        type="password"
        value={form.password}
        onChange={checked("password")}
        onBlur={() => checks.touch("password")}
        error={checks.error("password", fieldError)}
        maxLength={50}
        autoComplete="new-password"
      />
      {editingSelf && form.password && (
        <Input
          label={t("admin.users.currentPassword")}
          type="password"
          value={form.currentPassword}
          onChange={set("currentPassword")}
          error={serverError("currentPassword")}
          maxLength={200}
          autoComplete="current-password"
        />
      )}
      <Select
        label={t("admin.users.profile")}
        value={form.profile}
        onChange={set("profile")}
        options={[
          { value: "admin", label: t("admin.users.profiles.admin") },
          { value: "user", label: t("admin.users.profiles.user") },
        ]}
      />
      <QueueChecks queues={queues} value={form.queueIds} onChange={set("queueIds")} />
      <Select
        label={t("admin.users.connection")}
        value={form.whatsappId}
        onChange={set("whatsappId")}
        options={[
          { value: "", label: t("admin.users.noConnection") },
          ...connections.map((c) => ({ value: String(c.id), label: c.name })),
        ]}
      />
    </Modal>
  );
}
