import { useEffect, useState } from "react";
import { AI_FEATURES, type AiSettingsDto, type AiUsageDto, type Queue, type Wire } from "../../src/shared/contracts";
import { api, callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { Checkbox, Input, QueueChecks } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

type Form = Omit<AiSettingsDto, "hasKey" | "timeoutMs"> & { timeoutSeconds: string; apiKey: string };

const formOf = ({ hasKey: _, timeoutMs, ...settings }: AiSettingsDto): Form => ({
  ...settings,
  timeoutSeconds: String(timeoutMs / 1000),
  apiKey: "",
});

/**
 * The AI assistance card of Settings: endpoint, key (write-only: the field only says whether one is stored), model,
 * features and limits; Save, then Test asks the stored endpoint and shows its answer or what is wrong.
 */
export function AiSettings() {
  const t = useT();
  const [form, setForm] = useState<Form | null>(null);
  const [hasKey, setHasKey] = useState(false);
  const [busy, setBusy] = useState(false);
  const [usageShown, setUsageShown] = useState(0);
  const [queues, setQueues] = useState<Queue[]>([]);

  useEffect(() => {
    callApi("GET /ai/settings").then(
      (settings) => {
        setForm(formOf(settings));
        setHasKey(settings.hasKey);
      },
      (error) => toast("error", errorText(t, error)),
    );
    api<Queue[]>("/queue").then(setQueues, () => undefined);
  }, [t]);

  if (!form) return null;
  const set = (changes: Partial<Form>) => setForm({ ...form, ...changes });
  const number = (value: string) => Math.max(0, Math.round(Number(value) || 0));

  async function save(changes: { apiKey?: string } = {}) {
    if (!form) return false;
    const { timeoutSeconds, apiKey, ...settings } = form;
    setBusy(true);
    try {
      const saved = await callApi("PUT /ai/settings", {
        body: {
          ...settings,
          timeoutMs: Math.min(120_000, Math.max(1_000, Math.round(Number(timeoutSeconds) * 1000) || 20_000)),
          ...(apiKey ? { apiKey } : {}),
          ...changes,
        },
      });
      setForm(formOf(saved));
      setHasKey(saved.hasKey);
      toast("success", t("admin.settings.saved"));
      return true;
    } catch (error) {
      toast("error", errorText(t, error, "ai"));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function saveAndTest() {
    if (await save()) await test();
  }

  async function test() {
    setBusy(true);
    try {
      const { reply } = await callApi("POST /ai/test");
      toast("success", t("admin.settings.ai.testOk", { reply }));
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setBusy(false);
      setUsageShown((n) => n + 1);
    }
  }

  return (
    <div className="admin-card admin-ai">
      <h2>{t("admin.settings.ai.title")}</h2>
      <div className="admin-settings">
        <Checkbox
          label={t("admin.settings.ai.enabled")}
          checked={form.enabled}
          onChange={(enabled) => set({ enabled })}
        />
        <Input label={t("admin.settings.ai.baseUrl")} value={form.baseUrl} onChange={(baseUrl) => set({ baseUrl })} />
        <div className="field-with-note">
          <Input
            label={t("admin.settings.ai.apiKey")}
            type="password"
            autoComplete="new-password"
            value={form.apiKey}
            onChange={(apiKey) => set({ apiKey })}
          />
          <p className="field-note">
            {hasKey ? t("admin.settings.ai.apiKeyStored") : t("admin.settings.ai.apiKeyNone")}
            {hasKey && (
              <button type="button" className="button small" disabled={busy} onClick={() => void save({ apiKey: "" })}>
                {t("admin.settings.ai.removeKey")}
              </button>
            )}
          </p>
        </div>
        <Input label={t("admin.settings.ai.model")} value={form.model} onChange={(model) => set({ model })} />
        <fieldset className="field">
          <legend>{t("admin.settings.ai.features")}</legend>
          {AI_FEATURES.map((feature) => (
            <Checkbox
              key={feature}
              label={t(`admin.settings.ai.feature.${feature}`)}
              checked={form.features.includes(feature)}
              onChange={(on) =>
                set({ features: on ? [...form.features, feature] : form.features.filter((f) => f !== feature) })
              }
            />
          ))}
        </fieldset>
        <Input
          label={t("admin.settings.ai.timeout")}
          type="number"
          value={form.timeoutSeconds}
          onChange={(timeoutSeconds) => set({ timeoutSeconds })}
        />
        <Input
          label={t("admin.settings.ai.perMinute")}
          type="number"
          value={String(form.perMinute)}
          onChange={(v) => set({ perMinute: number(v) })}
        />
        <Input
          label={t("admin.settings.ai.dailyTokens")}
          type="number"
          value={String(form.dailyTokens)}
          onChange={(v) => set({ dailyTokens: number(v) })}
        />
        <Checkbox
          label={t("admin.settings.ai.includeNotes")}
          checked={form.includeNotes}
          onChange={(includeNotes) => set({ includeNotes })}
        />
        <Checkbox
          label={t("admin.settings.ai.autoSummary")}
          checked={form.autoSummary}
          onChange={(autoSummary) => set({ autoSummary })}
        />
      </div>
      <QueueChecks
        legend={t("admin.settings.ai.botQueues")}
        queues={queues}
        value={form.botQueueIds}
        onChange={(botQueueIds) => set({ botQueueIds })}
      />
      {form.botQueueIds.length > 0 && (
        <div className="admin-settings">
          <Input
            label={t("admin.settings.ai.botKnowledge")}
            multiline
            maxLength={20_000}
            value={form.botKnowledge}
            onChange={(botKnowledge) => set({ botKnowledge })}
          />
          <Input
            label={t("admin.settings.ai.botMaxTurns")}
            type="number"
            value={String(form.botMaxTurns)}
            onChange={(v) => set({ botMaxTurns: Math.min(50, Math.max(1, number(v))) })}
          />
        </div>
      )}
      <div className="admin-ai-actions">
        <button type="button" className="button primary" disabled={busy} onClick={() => void save()}>
          {t("admin.settings.ai.save")}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void saveAndTest()}>
          {t("admin.settings.ai.test")}
        </button>
      </div>
      <AiUsage key={usageShown} />
    </div>
  );
}

/** Today's AI requests, errors and tokens against the daily budget. */
function AiUsage() {
  const t = useT();
  const [usage, setUsage] = useState<Wire<AiUsageDto> | null>(null);
  useEffect(() => {
    callApi("GET /ai/usage").then(setUsage, () => undefined);
  }, []);
  if (!usage) return null;
  const tokens = usage.today.promptTokens + usage.today.completionTokens;
  return (
    <section className="admin-ai-usage" aria-label={t("admin.settings.ai.usage.title")}>
      <h3>{t("admin.settings.ai.usage.title")}</h3>
      <dl>
        <dt>{t("admin.settings.ai.usage.requests")}</dt>
        <dd>{usage.today.requests}</dd>
        <dt>{t("admin.settings.ai.usage.errors")}</dt>
        <dd>{usage.today.errors}</dd>
        <dt>{t("admin.settings.ai.usage.tokens")}</dt>
        <dd>
          {tokens} / {usage.dailyTokens > 0 ? usage.dailyTokens : t("admin.settings.ai.usage.unlimited")}
        </dd>
      </dl>
    </section>
  );
}
