import { useEffect, useState } from "react";
import { api, callApi } from "../lib/api";
import { ConnectionPicker, type ConnectionOption } from "../lib/connection-picker";
import { errorText } from "../lib/errors";
import { Checkbox, Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

interface Form {
  limit: string;
  minutes: string;
  seconds: string;
  contacts: boolean;
  photo: boolean;
  random: boolean;
  optOut: string;
}

const DEFAULTS: Form = {
  limit: "10",
  minutes: "1",
  seconds: "0",
  contacts: false,
  photo: false,
  random: false,
  optOut: "",
};

/** /SettingsMessage: one connection's bulk throttling (24 h limit, wait, filters, opt-out keyword). */
export default function SettingsMessage({ connections }: { connections?: ConnectionOption[] | null }) {
  const t = useT();
  const [whatsappId, setWhatsappId] = useState("");
  const [form, setForm] = useState<Form>(DEFAULTS);
  const [busy, setBusy] = useState(false);
  // The connection whose settings the form holds: until the picked one's have landed, the fields wait, so what
  // is typed meanwhile is not overwritten by them.
  const [loadedFor, setLoadedFor] = useState("");
  const loading = whatsappId !== loadedFor;

  useEffect(() => {
    if (!whatsappId) return;
    api<Partial<Record<keyof Form, unknown>>>(`/settingsMessage/${whatsappId}`)
      .then((row) => {
        setForm({
          limit: String(row.limit ?? DEFAULTS.limit),
          minutes: String(row.minutes ?? DEFAULTS.minutes),
          seconds: String(row.seconds ?? DEFAULTS.seconds),
          contacts: !!row.contacts,
          photo: !!row.photo,
          random: !!row.random,
          optOut: String(row.optOut ?? ""),
        });
        setLoadedFor(whatsappId);
      })
      .catch((error) => toast("error", errorText(t, error)));
  }, [whatsappId, t]);

  async function save() {
    if (!whatsappId) return toast("error", t("bulk.send.pickConnection"));
    setBusy(true);
    try {
      await callApi("POST /settingsMessage", {
        body: {
          whatsappId: Number(whatsappId),
          limit: Number(form.limit),
          minutes: Number(form.minutes),
          seconds: Number(form.seconds),
          contacts: form.contacts,
          photo: form.photo,
          random: form.random,
          optOut: form.optOut,
        },
      });
      toast("success", t("bulk.settings.saved"));
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  const number = (key: "limit" | "minutes" | "seconds") => (
    <Input
      label={t(`bulk.settings.${key}`)}
      type="number"
      value={form[key]}
      onChange={(v) => setForm({ ...form, [key]: v })}
      maxLength={7}
      readOnly={loading}
    />
  );
  const check = (key: "contacts" | "photo" | "random") => (
    <Checkbox
      className="check"
      label={t(`bulk.settings.${key}`)}
      checked={form[key]}
      disabled={loading}
      onChange={(checked) => setForm({ ...form, [key]: checked })}
    />
  );
  return (
    <section className="page admin-page">
      <h1 className="page-title">{t("bulk.settings.title")}</h1>
      <div className="admin-card">
        <ConnectionPicker value={whatsappId} onChange={setWhatsappId} initial={connections} />
        {number("limit")}
        {number("minutes")}
        {number("seconds")}
        {check("contacts")}
        {check("photo")}
        {check("random")}
        <Input
          label={t("bulk.settings.optOut")}
          value={form.optOut}
          onChange={(optOut) => setForm({ ...form, optOut })}
          maxLength={1000}
          readOnly={loading}
        />
        <button
          type="button"
          className="button primary"
          disabled={busy || (whatsappId !== "" && loading)}
          onClick={() => void save()}
        >
          {t("bulk.settings.save")}
        </button>
      </div>
    </section>
  );
}
