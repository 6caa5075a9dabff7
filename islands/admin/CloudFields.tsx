import { useId, useRef } from "react";
import { cloudWebhookPath } from "../../src/shared/contracts/connections";
import { Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";
import type { Form, SetField } from "./connection-form";

/**
 * A Cloud API connection's account fields, then what to paste into Meta's app: the webhook URL (once the
 * connection exists) and the verify token, each with a copy button.
 */
export function CloudFields({ form, set, connectionId }: { form: Form; set: SetField; connectionId?: number }) {
  const t = useT();
  const webhookUrl = connectionId ? `${window.location.origin}${cloudWebhookPath(connectionId)}` : "";
  return (
    <fieldset className="admin-checks">
      <legend>{t("admin.connections.cloud")}</legend>
      <div className="admin-grid">
        <Input
          label={t("admin.connections.phoneNumberId")}
          value={form.phoneNumberId}
          onChange={set("phoneNumberId")}
          maxLength={64}
        />
        <Input
          label={t("admin.connections.businessAccountId")}
          value={form.businessAccountId}
          onChange={set("businessAccountId")}
          maxLength={64}
        />
      </div>
      <Input
        type="password"
        label={t("admin.connections.accessToken")}
        value={form.accessToken}
        onChange={set("accessToken")}
        maxLength={1000}
        autoComplete="new-password"
      />
      <Input
        type="password"
        label={t("admin.connections.appSecret")}
        value={form.appSecret}
        onChange={set("appSecret")}
        maxLength={200}
        autoComplete="new-password"
      />
      {connectionId && <p className="field-note">{t("admin.connections.secretKept")}</p>}
      {webhookUrl && <CopyField label={t("admin.connections.webhookUrl")} value={webhookUrl} />}
      {form.verifyToken && <CopyField label={t("admin.connections.verifyToken")} value={form.verifyToken} />}
      <p className="field-note">{t("admin.connections.cloudHint")}</p>
    </fieldset>
  );
}

/** A read-only value with a button that copies it. */
function CopyField({ label, value }: { label: string; value: string }) {
  const t = useT();
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Without the clipboard API (plain http from another host) the browser's own copy works.
      field.current?.select();
      if (!document.execCommand("copy")) return toast("error", t("admin.settings.copyFailed"));
    }
    toast("success", t("admin.connections.copied"));
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input id={id} ref={field} value={value} readOnly />
        <button type="button" className="button small" onClick={() => void copy()}>
          {t("admin.connections.copy")}
        </button>
      </div>
    </div>
  );
}
