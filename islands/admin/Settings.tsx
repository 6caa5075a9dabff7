import { CopyField } from "../lib/copy-field";
import { Fragment, useEffect, useState } from "react";
import type { OffsiteStatusDto } from "../../src/shared/contracts";
import { SETTING_DEFINITIONS } from "../../src/shared/settings";
import { api, callApi } from "../lib/api";
import { AiSettings } from "./AiSettings";
import { errorText } from "../lib/errors";
import { Select } from "../lib/form";
import { dateTimeLabel } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { useLive } from "../lib/live";
import { Confirm } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";

const SELECTS = ["userCreation", "timeCreateNewTicket", "call", "CheckMsgIsGroup", "chatBotType"] as const;

interface SettingRow {
  key: string;
  value: string;
}

interface BackupFile {
  name: string;
  size: number;
  createdAt: string;
  kind: "scheduled" | "pre-migration";
}

/** What the page route loads before the island mounts: the setting rows, the backup list and the off-site copies. */
export interface SettingsData {
  settings: SettingRow[];
  backups: BackupFile[];
  offsite?: OffsiteStatusDto;
}

const byKey = (rows: SettingRow[]) => Object.fromEntries(rows.map((r) => [r.key, r.value]));

/** /Settings: one select per global setting (saved on change) and the read-only API token with a copy button. */
export default function Settings({ initial }: { initial?: SettingsData | null }) {
  const t = useT();
  const [values, setValues] = useState<Record<string, string> | null>(initial ? byKey(initial.settings) : null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (initial) return;
    api<SettingRow[]>("/settings")
      .then((rows) => setValues(byKey(rows)))
      .catch((error) => toast("error", errorText(t, error)));
  }, [t, initial]);

  useLive(["settings"], ({ setting }: { setting?: SettingRow }) => {
    if (setting) setValues((v) => v && { ...v, [setting.key]: setting.value });
  });

  async function change(key: string, value: string) {
    const before = values;
    setValues((v) => v && { ...v, [key]: value });
    try {
      await callApi("PUT /settings/:key", { params: { key }, body: { value } });
      toast("success", t("admin.settings.saved"));
    } catch (error) {
      setValues(before);
      toast("error", errorText(t, error));
    }
  }

  async function regenerate() {
    setConfirming(false);
    try {
      const setting = await api<SettingRow>("/settings/userApiToken/regenerate", {
        method: "POST",
      });
      setValues((v) => v && { ...v, userApiToken: setting.value });
      toast("success", t("admin.settings.saved"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  const label = (key: string, value: string) =>
    t(`admin.settings.values.${key === "timeCreateNewTicket" ? `t${value}` : value}`);
  return (
    <section className="page admin-page">
      <h1 className="page-title">{t("admin.settings.title")}</h1>
      {values ? (
        <div className="admin-card admin-settings">
          {SELECTS.map((key) => (
            <Fragment key={key}>
              <Select
                label={t(`admin.settings.${key}`)}
                value={values[key] ?? ""}
                onChange={(v) => change(key, v)}
                options={SETTING_DEFINITIONS[key].allowed.map((v) => ({ value: v, label: label(key, v) }))}
              />
              {key === "chatBotType" && <p className="field-note">{t("admin.settings.chatBotTypeNote")}</p>}
            </Fragment>
          ))}
          <TokenField token={values.userApiToken ?? ""} />
          <button type="button" className="button" onClick={() => setConfirming(true)}>
            {t("admin.settings.regenerateToken")}
          </button>
        </div>
      ) : (
        <p className="list-empty">{t("app.loading")}</p>
      )}
      <AiSettings />
      <Backups initial={initial?.backups} initialOffsite={initial?.offsite} />
      {confirming && (
        <Confirm
          variant="admin"
          title={t("admin.settings.regenerateToken")}
          text={t("admin.settings.regenerateConfirm")}
          onClose={() => setConfirming(false)}
          onConfirm={regenerate}
        />
      )}
    </section>
  );
}

/** The API token, read-only, with a button that copies it. */
function TokenField({ token }: { token: string }) {
  const t = useT();
  return (
    <CopyField
      label={t("admin.settings.userApiToken")}
      value={token}
      button={t("admin.settings.copyToken")}
      copied={t("admin.settings.tokenCopied")}
    />
  );
}

/**
 * The backups under DATA_DIR/backups, newest first, each with its size, date and a download link; "Back up now";
 * and how their off-site copies go.
 */
function Backups({ initial, initialOffsite }: { initial?: BackupFile[]; initialOffsite?: OffsiteStatusDto }) {
  const t = useT();
  // The date (browser locale) is only known after mount.
  const mounted = useMounted();
  const [files, setFiles] = useState<BackupFile[] | null>(initial ?? null);
  const [offsite, setOffsite] = useState<OffsiteStatusDto | null>(initialOffsite ?? null);
  const [backingUp, setBackingUp] = useState(false);
  async function backUpNow() {
    setBackingUp(true);
    try {
      const file = await api<BackupFile>("/backups", { method: "POST" });
      setFiles((shown) => [file, ...(shown ?? []).filter((f) => f.name !== file.name)]);
      toast("success", t("admin.settings.backups.done"));
      setOffsite(await callApi("GET /backups/offsite"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
    setBackingUp(false);
  }
  /** Downloads a backup through a short-lived signed link asked for now: a link can't carry the token. */
  async function download(name: string) {
    try {
      const { url } = await callApi("POST /backups/:name/link", { params: { name } });
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      link.click();
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }
  useEffect(() => {
    if (initial) return;
    api<BackupFile[]>("/backups")
      .then(setFiles)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t, initial]);
  useEffect(() => {
    if (initialOffsite) return;
    callApi("GET /backups/offsite")
      .then(setOffsite)
      .catch((error) => toast("error", errorText(t, error)));
  }, [t, initialOffsite]);
  return (
    <div className="admin-card admin-backups">
      <div className="admin-backups-header">
        <h2>{t("admin.settings.backups.title")}</h2>
        <button type="button" className="button small" onClick={() => void backUpNow()} disabled={backingUp}>
          {t("admin.settings.backups.now")}
        </button>
      </div>
      {files === null ? (
        <p className="list-empty">{t("app.loading")}</p>
      ) : files.length === 0 ? (
        <p className="list-empty">{t("admin.settings.backups.empty")}</p>
      ) : (
        <ul>
          {files.map((f) => (
            <li key={f.name}>
              <span>{mounted ? dateTimeLabel(f.createdAt) : ""}</span>
              <span>{t(`admin.settings.backups.${f.kind}`)}</span>
              <span>{megabytes(f.size)}</span>
              <a
                href={`/api/backups/${encodeURIComponent(f.name)}`}
                download={f.name}
                onClick={(event) => {
                  event.preventDefault();
                  void download(f.name);
                }}
              >
                {t("admin.settings.backups.download")}
              </a>
            </li>
          ))}
        </ul>
      )}
      {offsite && <Offsite status={offsite} mounted={mounted} />}
    </div>
  );
}

/** Where backups are uploaded (never with keys), the last upload, and the uploads that failed with their error. */
function Offsite({ status, mounted }: { status: OffsiteStatusDto; mounted: boolean }) {
  const t = useT();
  const time = (iso: string | null) => (mounted && iso ? dateTimeLabel(iso) : "");
  return (
    <div className="admin-backups-offsite">
      <h3>{t("admin.settings.backups.offsiteTitle")}</h3>
      {status.target === null ? (
        <p className="list-empty">{t("admin.settings.backups.offsiteOff")}</p>
      ) : (
        <>
          <p>{t("admin.settings.backups.offsiteTarget", { target: status.target, keep: status.keep })}</p>
          <p>
            {status.lastUpload
              ? t("admin.settings.backups.lastUpload", {
                  name: status.lastUpload.name,
                  time: time(status.lastUpload.at),
                })
              : t("admin.settings.backups.noUpload")}
          </p>
          {status.queued > 0 && <p>{t("admin.settings.backups.queued", { count: status.queued })}</p>}
          {status.failures.length > 0 && (
            <ul className="admin-backups-failures">
              {status.failures.map((f) => (
                <li key={f.name}>
                  {t(`admin.settings.backups.${f.state}`, {
                    name: f.name,
                    count: f.attempts,
                    time: time(f.nextAttemptAt),
                    error: f.error,
                  })}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
