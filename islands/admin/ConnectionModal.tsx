import { useEffect, useState } from "react";
import { PROVIDERS } from "../../src/shared/contracts/providers";
import { FORM_RULES } from "../../src/shared/validation";
import { api, callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { useFieldChecks } from "../lib/field-checks";
import { errorText } from "../lib/errors";
import { Checkbox, Input, QueueChecks, Select } from "../lib/form";
import { useI18n, useT } from "../lib/i18n-context";
import { isLang } from "../../src/i18n/shared";
import { CONNECTION_LANGUAGES, type ConnectionLanguage } from "../../src/shared/contracts/connections";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import type { Connection, NewConnection, Queue } from "../../src/shared/contracts";
import { CloudFields } from "./CloudFields";
import { cloudChanges, type Form, initial, providerLabel, type SetField } from "./connection-form";
import { WorkHoursFields } from "./WorkHoursFields";

/** The connection's automatic messages and the label key of each. */
const MESSAGES = [
  ["greetingMessage", "greeting"],
  ["farewellMessage", "farewell"],
  ["transferTicketMessage", "transfer"],
  ["outOfWorkMessage", "outOfWork"],
] as const;

/** Add/edit connection: name, provider, default flag, messages, call token, queues and work hours. */
export function ConnectionModal({
  connection,
  sandbox,
  onClose,
  onSaved,
}: {
  connection: Connection | null;
  sandbox: boolean;
  onClose: () => void;
  onSaved: (c: Connection) => void;
}) {
  const t = useT();
  const { language } = useI18n();
  const [form, setForm] = useState(() =>
    initial(connection, t("csat.defaultMessage", { name: "{{name}}" }), isLang(language) ? language : "pt"),
  );
  const [queues, setQueues] = useState<Queue[]>([]);
  const [daysError, setDaysError] = useState<string | null>(null);
  const { busy, fieldError, run } = useFormSave(false, undefined, ["name"]);
  const checks = useFieldChecks(FORM_RULES.connection, { name: form.name });

  // Events never carry a cloud connection's secrets: the form reads them (and the verify token) over HTTP.
  useEffect(() => {
    if (connection?.provider !== "cloud") return;
    api<Connection>(`/whatsapp/${connection.id}`)
      .then((full) =>
        setForm((f) => ({
          ...f,
          accessToken: full.accessToken ?? "",
          appSecret: full.appSecret ?? "",
          verifyToken: full.verifyToken ?? "",
        })),
      )
      .catch((error) => toast("error", errorText(t, error)));
  }, [connection, t]);

  useEffect(() => {
    api<Queue[]>("/queue")
      .then(setQueues)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t]);

  const set: SetField = (key) => (value) => setForm((f) => ({ ...f, [key]: value }));

  async function save() {
    const nameValid = checks.checkAll();
    const historyDays = Number(form.importHistoryDays);
    const daysProblem =
      Number.isInteger(historyDays) && historyDays >= 1 && historyDays <= 365
        ? null
        : t("admin.connections.importHistoryDaysRange");
    setDaysError(daysProblem);
    if (!nameValid || daysProblem) return;
    await run(async () => {
      const { days, provider, phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken, ...rest } = form;
      const body: NewConnection = {
        ...rest,
        ...cloudChanges(form),
        ...days,
        importHistoryDays: historyDays,
        ...(connection ? {} : { provider }),
      };
      const saved = connection
        ? await callApi("PUT /whatsapp/:id", { params: { id: connection.id }, body })
        : await callApi("POST /whatsapp", { body });
      toast("success", t("admin.connections.saved"));
      onSaved(saved);
    });
  }

  return (
    <Modal
      variant="admin"
      title={t(connection ? "admin.connections.editTitle" : "admin.connections.addTitle")}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
      wide
    >
      <div className="admin-grid">
        <Input
          label={t("admin.common.name")}
          value={form.name}
          onChange={(name) => {
            set("name")(name);
            checks.touch("name");
          }}
          onBlur={() => checks.touch("name")}
          error={checks.error("name", fieldError)}
          maxLength={50}
        />
        {!connection && (
          <Select
            label={t("admin.connections.provider")}
            value={form.provider}
            onChange={(v) => set("provider")(v as Form["provider"])}
            options={PROVIDERS.filter((p) => sandbox || p !== "sandbox").map((p) => ({
              value: p,
              label: providerLabel(t, p),
            }))}
          />
        )}
      </div>
      {form.provider === "cloud" && <CloudFields form={form} set={set} connectionId={connection?.id} />}
      <Checkbox label={t("admin.connections.default")} checked={form.isDefault} onChange={set("isDefault")} />
      <Select
        label={t("admin.connections.language")}
        value={form.language}
        onChange={(v) => set("language")(v as ConnectionLanguage)}
        options={CONNECTION_LANGUAGES.map((l) => ({ value: l, label: t(`admin.connections.languages.${l}`) }))}
      />
      {MESSAGES.map(([field, label]) => (
        <Input
          key={field}
          label={t(`admin.connections.${label}`)}
          value={form[field]}
          onChange={set(field)}
          multiline
          maxLength={30000}
        />
      ))}
      <fieldset className="admin-checks">
        <legend>{t("admin.connections.csat")}</legend>
        <Checkbox label={t("admin.connections.csatEnabled")} checked={form.csatEnabled} onChange={set("csatEnabled")} />
        {form.csatEnabled && (
          <Input
            label={t("admin.connections.csatMessage")}
            value={form.csatMessage}
            onChange={set("csatMessage")}
            multiline
            maxLength={30000}
          />
        )}
      </fieldset>
      {/* The Cloud API has no calls for the dialer and sends no chat history: neither is offered for it. */}
      {form.provider !== "cloud" && (
        <Input label={t("admin.connections.wavoip")} value={form.wavoip} onChange={set("wavoip")} maxLength={500} />
      )}
      <fieldset className="admin-checks" hidden={form.provider === "cloud"}>
        <legend>{t("admin.connections.history")}</legend>
        <Checkbox
          label={t("admin.connections.importHistory")}
          checked={form.importHistory}
          onChange={set("importHistory")}
        />
        {form.importHistory && (
          <Input
            type="number"
            label={t("admin.connections.importHistoryDays")}
            value={form.importHistoryDays}
            onChange={set("importHistoryDays")}
            error={daysError}
            maxLength={3}
          />
        )}
        <p className="field-note">{t("admin.connections.importHistoryHint")}</p>
      </fieldset>
      <QueueChecks queues={queues} value={form.queueIds} onChange={set("queueIds")} />
      <WorkHoursFields form={form} set={set} />
    </Modal>
  );
}
