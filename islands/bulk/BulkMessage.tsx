import { useState } from "react";
import { buildBulk, type BulkPreview } from "../../src/shared/bulk-template";
import type { BulkRecipient } from "../../src/shared/contracts";
import { api, callApi } from "../lib/api";
import { ConnectionPicker, type ConnectionOption } from "../lib/connection-picker";
import { errorText } from "../lib/errors";
import { Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { useLive } from "../lib/live";
import { type TemplateChoice, TemplateFields } from "../lib/template-fields";
import { toast } from "../lib/toast";

const FAILED = new Set([
  "number not exists",
  "no photo contact",
  "not a contact",
  "opted out",
  "outside 24h window",
  "error",
]);

/** /BulkMessage: template plus CSV data (pasted or a .csv file), a preview, the send, then the campaign's live progress. */
export default function BulkMessage({ connections }: { connections?: ConnectionOption[] | null }) {
  const t = useT();
  const [whatsappId, setWhatsappId] = useState("");
  const [template, setTemplate] = useState("");
  const [data, setData] = useState("");
  const [preview, setPreview] = useState<BulkPreview[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [campaign, setCampaign] = useState<{ statuses: Record<number, string>; gapSeconds: number } | null>(null);
  const [errors, setErrors] = useState<{ template?: string; data?: string }>({});
  const [cloudTemplate, setCloudTemplate] = useState<TemplateChoice>({ template: null, complete: true });
  const cloud = connections?.find((c) => String(c.id) === whatsappId)?.provider === "cloud";
  const chosenTemplate = cloud ? cloudTemplate.template : null;

  useLive(["massMessage"], (p) => {
    if (p.action === "delete") return;
    const { record } = p;
    setCampaign((c) =>
      c && record.id in c.statuses ? { ...c, statuses: { ...c.statuses, [record.id]: record.status } } : c,
    );
  });

  function validate(): boolean {
    const found = {
      template: template.trim() ? undefined : t("validation.rules.required"),
      data: data.trim() ? undefined : t("validation.rules.required"),
    };
    setErrors(found);
    return !found.template && !found.data;
  }

  async function readFile(file: File | undefined) {
    if (file) setData(await file.text());
  }

  async function send() {
    if (!whatsappId) return toast("error", t("bulk.send.pickConnection"));
    if (!validate() || (cloud && !cloudTemplate.complete)) return toast("error", t("bulk.send.fillAll"));
    const items: BulkRecipient[] = buildBulk(template, data, chosenTemplate).map((i) => ({
      ...i,
      whatsappId: Number(whatsappId),
    }));
    if (!items.length) return toast("error", t("bulk.send.fillAll"));
    setBusy(true);
    try {
      const res = await callApi("POST /bulkMessage", { body: items });
      const settings = await api<{ minutes?: number; seconds?: number }>(`/settingsMessage/${whatsappId}`);
      const gapSeconds = Math.max(1, (settings.minutes ?? 1) * 60 + (settings.seconds ?? 0));
      setCampaign({ statuses: Object.fromEntries(res.ids.map((id) => [id, "pending"])), gapSeconds });
      toast("success", t("bulk.send.saved", { count: res.created }));
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page admin-page bulk-page">
      <h1 className="page-title">{t("bulk.send.title")}</h1>
      <div className="admin-card">
        <ConnectionPicker value={whatsappId} onChange={setWhatsappId} initial={connections} withoutDefault />
        <Input
          label={t("bulk.send.template")}
          value={template}
          onChange={setTemplate}
          multiline
          maxLength={30000}
          error={errors.template}
        />
        <Input
          label={t("bulk.send.data")}
          value={data}
          onChange={setData}
          multiline
          maxLength={2_000_000}
          error={errors.data}
        />
        {cloud && (
          <fieldset className="field">
            <legend>{t("chat.template.outsideWindow")}</legend>
            <p className="field-note">{t("chat.template.outsideWindowNote")}</p>
            <TemplateFields
              key={whatsappId}
              whatsappId={Number(whatsappId)}
              optional
              label={t("chat.template.pickApproved")}
              onChange={setCloudTemplate}
            />
          </fieldset>
        )}
        <label className="field">
          <span>{t("bulk.send.file")}</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => void readFile(e.target.files?.[0])} />
        </label>
        <div className="admin-toolbar">
          <button
            type="button"
            className="button"
            onClick={() => validate() && setPreview(buildBulk(template, data, chosenTemplate))}
          >
            {t("bulk.send.preview")}
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => void send()}>
            {t("bulk.send.submit")}
          </button>
        </div>
      </div>
      {campaign && <Progress statuses={campaign.statuses} gapSeconds={campaign.gapSeconds} />}
      {preview && (
        <div className="bulk-preview">
          {preview.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a preview is replaced whole, and a phone may repeat in it
            <article key={i} className="admin-card bulk-card" data-preview-phone={p.phone}>
              <strong>{p.phone}</strong>
              <p>{p.message}</p>
            </article>
          ))}
        </div>
      )}
    </section>
  );
}

function Progress({ statuses, gapSeconds }: { statuses: Record<number, string>; gapSeconds: number }) {
  const t = useT();
  const all = Object.values(statuses);
  const sent = all.filter((s) => s === "sent").length;
  const failed = all.filter((s) => FAILED.has(s)).length;
  const pending = all.length - sent - failed;
  const eta = pending * gapSeconds;
  return (
    <div className="admin-card bulk-progress" data-sent={sent} data-failed={failed} data-pending={pending}>
      <progress max={all.length} value={sent + failed} aria-label={t("bulk.send.progress")} style={{ width: "100%" }} />
      <p>{t("bulk.send.counts", { sent, failed, pending })}</p>
      {pending > 0 && <p>{t("bulk.send.eta", { minutes: Math.floor(eta / 60), seconds: eta % 60 })}</p>}
    </div>
  );
}
