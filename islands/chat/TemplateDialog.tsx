import { useEffect, useState } from "react";
import type { MessageTemplate } from "../../src/shared/contracts/templates";
import { renderTemplate } from "../../src/shared/templates";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { Input, Select } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";

const keyOf = (template: MessageTemplate) => `${template.name}|${template.language}`;

/**
 * What the Cloud API takes after the customer's 24-hour window: one of the connection's approved templates, its
 * placeholders filled in a small form, with a preview of the text the customer gets.
 */
export function TemplateDialog({
  ticketId,
  whatsappId,
  onClose,
}: {
  ticketId: number;
  whatsappId: number;
  onClose: () => void;
}) {
  const t = useT();
  const [templates, setTemplates] = useState<MessageTemplate[] | null>(null);
  const [chosen, setChosen] = useState("");
  const [values, setValues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api<MessageTemplate[]>(`/whatsapp/${whatsappId}/templates`)
      .then((list) => {
        setTemplates(list);
        if (list[0]) setChosen(keyOf(list[0]));
      })
      .catch((error) => toast("error", errorText(t, error)));
  }, [whatsappId, t]);

  const template = templates?.find((candidate) => keyOf(candidate) === chosen);
  const parameters = Array.from({ length: template?.variables ?? 0 }, (_, i) => values[i] ?? "");
  const complete = !!template && parameters.every((value) => value.trim() !== "");

  async function send() {
    if (!template || !complete) return;
    setBusy(true);
    try {
      await api(`/messages/${ticketId}/template`, {
        method: "POST",
        body: { name: template.name, language: template.language, parameters },
      });
      toast("success", t("chat.template.sent"));
      onClose();
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={t("chat.template.title")}
      onClose={onClose}
      onSubmit={() => void send()}
      busy={busy}
      okLabel={t("chat.template.send")}
      okDisabled={!complete}
    >
      <p className="field-note">{t("errors.ERR_OUTSIDE_24H_WINDOW")}</p>
      {templates?.length === 0 && <p>{t("chat.template.none")}</p>}
      {templates && templates.length > 0 && (
        <>
          <Select
            label={t("chat.template.pick")}
            value={chosen}
            onChange={(key) => {
              setChosen(key);
              setValues([]);
            }}
            options={templates.map((candidate) => ({
              value: keyOf(candidate),
              label: `${candidate.name} (${candidate.language})`,
            }))}
          />
          {parameters.map((value, i) => (
            <Input
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders are numbered, in order
              key={i}
              label={t("chat.template.value", { n: i + 1 })}
              value={value}
              onChange={(next) => setValues(parameters.map((old, j) => (j === i ? next : old)))}
              maxLength={1024}
            />
          ))}
          {template && (
            <div className="field">
              <span>{t("chat.template.preview")}</span>
              <p className="template-preview">{renderTemplate(template.body, parameters)}</p>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
