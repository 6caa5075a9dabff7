import { useEffect, useState } from "react";
import type { Contact, NewContact } from "../../src/shared/contracts";
import { cleanNumber, FORM_RULES } from "../../src/shared/validation";
import { api, callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useFieldChecks } from "../lib/field-checks";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";

export type { Contact };

interface Extra {
  id?: number;
  name: string;
  value: string;
}

/** An extra-info row being edited, with a key of its own so removing a row keeps the others' inputs. */
type ExtraRow = Extra & { key: number };

/** The fields whose server refusals show next to them. */
const FIELDS = ["name", "number", "email"] as const;

let nextKey = 0;
const keyed = (x: Extra): ExtraRow => ({ ...x, key: nextKey++ });

/** Add/edit a contact: name, number, email and the extra-info list (POST /contacts or PUT /contacts/:id). */
export function ContactModal({
  contactId,
  onClose,
  onSaved,
}: {
  contactId: number | null;
  onClose: () => void;
  onSaved?: (c: Contact) => void;
}) {
  const t = useT();
  const [form, setForm] = useState<Required<Omit<NewContact, "extraInfo">>>({ name: "", number: "", email: "" });
  const [extra, setExtra] = useState<ExtraRow[]>([]);
  const [numberUnknown, setNumberUnknown] = useState(false);
  const { busy, setBusy, fieldError, run } = useFormSave(contactId != null, undefined, FIELDS);
  // A contact known only by its LID may stay without a number.
  const numberOptional = numberUnknown && !form.number.trim();
  const checks = useFieldChecks(numberOptional ? { ...FORM_RULES.contact, number: {} } : FORM_RULES.contact, {
    ...form,
    number: cleanNumber(form.number),
  });

  useEffect(() => {
    if (contactId == null) return;
    api<Contact & { extraInfo: Extra[] }>(`/contacts/${contactId}`)
      .then((c) => {
        setForm({ name: c.name, number: c.number ?? "", email: c.email ?? "" });
        setNumberUnknown(c.number == null);
        setExtra(c.extraInfo.map((x) => keyed({ id: x.id, name: x.name, value: x.value ?? "" })));
        setBusy(false);
      })
      .catch((error) => {
        toast("error", errorText(t, error));
        onClose();
      });
  }, [contactId, t, onClose, setBusy]);

  function save() {
    if (!checks.checkAll()) return;
    return run(async () => {
      // A contact known only by its LID keeps no number until one is typed.
      const { number, ...rest } = form;
      const extraInfo = extra
        .filter((x) => x.name.trim())
        .map((x) => ({ ...(x.id ? { id: x.id } : {}), name: x.name.trim(), value: x.value }));
      const saved =
        contactId == null
          ? await callApi("POST /contacts", { body: { ...rest, number, extraInfo } })
          : await callApi("PUT /contacts/:id", {
              params: { id: contactId },
              body: { ...rest, ...(numberOptional ? {} : { number }), extraInfo },
            });
      toast("success", t("agent.contacts.saved"));
      onSaved?.(saved);
      onClose();
    });
  }

  const input = (k: keyof typeof form, type = "text") => {
    const error = checks.error(k, fieldError);
    return (
      <div className="field">
        <label htmlFor={`contact-${k}`}>{t(`agent.contacts.${k}`)}</label>
        <input
          id={`contact-${k}`}
          type={type}
          value={form[k]}
          maxLength={k === "email" ? 320 : 100}
          placeholder={k === "number" && numberUnknown ? t("agent.contacts.numberUnknown") : undefined}
          aria-invalid={!!error || undefined}
          onChange={(e) => {
            setForm({ ...form, [k]: e.target.value });
            checks.touch(k);
          }}
          onBlur={() => checks.touch(k)}
        />
        {error && <p className="field-error">{error}</p>}
      </div>
    );
  };
  const setRow = (i: number, patch: Partial<Extra>) =>
    setExtra(extra.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <Modal
      title={contactId == null ? t("agent.contacts.add") : t("agent.contacts.edit")}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
    >
      {input("name")}
      {input("number", "tel")}
      {input("email", "email")}
      <fieldset className="extra-info">
        <legend>{t("agent.contacts.extraInfo")}</legend>
        {extra.map((x, i) => (
          <div key={x.key} className="extra-row">
            <input
              aria-label={t("agent.contacts.extraName")}
              placeholder={t("agent.contacts.extraName")}
              value={x.name}
              maxLength={100}
              onChange={(e) => setRow(i, { name: e.target.value })}
            />
            <input
              aria-label={t("agent.contacts.extraValue")}
              placeholder={t("agent.contacts.extraValue")}
              value={x.value}
              maxLength={2000}
              onChange={(e) => setRow(i, { value: e.target.value })}
            />
            <button type="button" className="button small" onClick={() => setExtra(extra.filter((_, j) => j !== i))}>
              {t("agent.common.remove")}
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button small"
          onClick={() => setExtra([...extra, keyed({ name: "", value: "" })])}
        >
          {t("agent.contacts.addExtra")}
        </button>
      </fieldset>
    </Modal>
  );
}
