import { cloudWebhookPath } from "../../src/shared/contracts/connections";
import { Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { CopyField } from "../lib/copy-field";
import type { Form, SetField } from "./connection-form";

/**
 * A Cloud API connection's account fields, then what to paste into Meta's app: the webhook URL (once the
 * connection exists) and the verify token, each with a copy button.
 */
export function CloudFields({ form, set, connectionId }: { form: Form; set: SetField; connectionId?: number }) {
  const t = useT();
  const copyTexts = { button: t("admin.connections.copy"), copied: t("admin.connections.copied") };
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
      {webhookUrl && <CopyField label={t("admin.connections.webhookUrl")} value={webhookUrl} {...copyTexts} />}
      {form.verifyToken && (
        <CopyField label={t("admin.connections.verifyToken")} value={form.verifyToken} {...copyTexts} />
      )}
      <p className="field-note">{t("admin.connections.cloudHint")}</p>
    </fieldset>
  );
}
