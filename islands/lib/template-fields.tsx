import { useEffect, useState } from "react";
import type { MessageTemplate, TemplateMessage } from "../../src/shared/contracts/templates";
import { renderTemplate } from "../../src/shared/templates";
import { api } from "./api";
import type { ConnectionOption } from "./connection-picker";
import { errorText } from "./errors";
import { Input, Select } from "./form";
import { useT } from "./i18n-context";
import { toast } from "./toast";

const keyOf = (template: Pick<MessageTemplate, "name" | "language">) => `${template.name}|${template.language}`;

/** A template chosen in TemplateFields, and whether every value it takes is filled. */
export interface TemplateChoice {
  template: TemplateMessage | null;
  complete: boolean;
}

/**
 * One of a Cloud API connection's approved templates and its values, filled in a small form: the body's
 * placeholders, the header's value (its text, or the link of its image, video or document) and the end of each URL
 * button's link, with a preview of the body. `optional` offers "no template" first.
 */
export function TemplateFields({
  whatsappId,
  initial,
  optional = false,
  label,
  onChange,
}: {
  whatsappId: number;
  initial?: TemplateMessage | null;
  optional?: boolean;
  label?: string;
  onChange: (choice: TemplateChoice) => void;
}) {
  const t = useT();
  const [templates, setTemplates] = useState<MessageTemplate[] | null>(null);
  const [chosen, setChosen] = useState(initial ? keyOf(initial) : "");
  const [values, setValues] = useState<string[]>(initial?.parameters ?? []);
  const [header, setHeader] = useState(initial?.header ?? "");
  const [buttons, setButtons] = useState<string[]>(initial?.buttons ?? []);

  useEffect(() => {
    api<MessageTemplate[]>(`/whatsapp/${whatsappId}/templates`)
      .then((list) => {
        setTemplates(list);
        if (!optional && list[0]) setChosen((key) => key || keyOf(list[0]!));
      })
      .catch((error) => toast("error", errorText(t, error)));
  }, [whatsappId, optional, t]);

  const template = templates?.find((candidate) => keyOf(candidate) === chosen);
  const parameters = Array.from({ length: template?.variables ?? 0 }, (_, i) => values[i] ?? "");
  const urlButtons = template?.urlButtons ?? [];
  const buttonValues = urlButtons.map((_, i) => buttons[i] ?? "");
  const filled = [...parameters, ...buttonValues, ...(template?.header ? [header] : [])];
  const complete = !template || filled.every((value) => value.trim() !== "");
  const message: TemplateMessage | null = template
    ? {
        name: template.name,
        language: template.language,
        parameters,
        ...(template.header ? { header } : {}),
        ...(urlButtons.length ? { buttons: buttonValues } : {}),
      }
    : null;
  const reported = templates ? JSON.stringify([message, complete]) : null;

  // Nothing is reported before the list is loaded: a value given as `initial` stands until then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported stands for message and complete
  useEffect(() => {
    if (reported !== null) onChange({ template: message, complete: complete && (optional || !!message) });
  }, [reported]);

  if (templates?.length === 0) return <p>{t("chat.template.none")}</p>;
  if (!templates) return null;
  const headerLabel = template?.header
    ? template.header.type === "text"
      ? t("chat.template.headerText", { text: template.header.text ?? "" })
      : t(`chat.template.headerMedia.${template.header.type}`)
    : "";
  return (
    <>
      <Select
        label={label ?? t("chat.template.pick")}
        value={chosen}
        onChange={(key) => {
          setChosen(key);
          setValues([]);
          setHeader("");
          setButtons([]);
        }}
        options={[
          ...(optional ? [{ value: "", label: t("chat.template.noTemplate") }] : []),
          ...templates.map((candidate) => ({
            value: keyOf(candidate),
            label: `${candidate.name} (${candidate.language})`,
          })),
        ]}
      />
      {template?.header && <Input label={headerLabel} value={header} onChange={setHeader} maxLength={2048} />}
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
      {urlButtons.map((button, i) => (
        <Input
          key={button.index}
          label={t("chat.template.button", { text: button.text, url: button.url })}
          value={buttonValues[i]!}
          onChange={(next) => setButtons(buttonValues.map((old, j) => (j === i ? next : old)))}
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
  );
}

/**
 * The Cloud API connection a message will go out on, for its template: `preferred` (the chat's) if it is one, else
 * the default connection if it is one; null otherwise (or until the connections are loaded).
 */
export function useTemplateConnection(preferred: number | null | undefined): number | null {
  const [id, setId] = useState<number | null>(null);
  useEffect(() => {
    api<ConnectionOption[]>("/whatsapp/")
      .then((rows) => {
        const pick = rows.find((c) => c.id === preferred) ?? rows.find((c) => c.isDefault);
        setId(pick?.provider === "cloud" ? pick.id : null);
      })
      .catch(() => setId(null));
  }, [preferred]);
  return id;
}
