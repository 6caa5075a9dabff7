import { useEffect, useState } from "react";
import type { Wire, WebhookEndpointDto } from "../../src/shared/contracts";
import { WEBHOOK_EVENTS } from "../../src/shared/webhook-events";
import { api, callApi } from "../lib/api";
import { useFormSave, useRowDelete } from "../lib/crud";
import { errorText } from "../lib/errors";
import { Input } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { AdminHeader, ListStatus } from "../lib/list-ui";
import { Confirm, Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import { type Delivery, DeliveryLog } from "./WebhookDeliveries";

type Endpoint = Wire<WebhookEndpointDto>;

/** What the page route loads before the island mounts: the endpoints and the first page of the delivery log. */
export interface WebhooksData {
  endpoints: Endpoint[];
  deliveries: Delivery[];
}

/** /webhooks: the endpoints (URL, events, signing secret, on/off) and the log of their deliveries. */
export default function Webhooks({ initial }: { initial?: WebhooksData | null }) {
  const t = useT();
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(initial?.endpoints ?? null);
  const [failed, setFailed] = useState(false);
  const [adding, setAdding] = useState(false);
  const [log, setLog] = useState(0);
  const { deleting, setDeleting, remove } = useRowDelete<Endpoint>(
    (e) => `/webhooks/${e.id}`,
    (e) => setEndpoints((rows) => rows?.filter((x) => x.id !== e.id) ?? null),
    "admin.webhooks.deleted",
  );

  useEffect(() => {
    if (initial) return;
    api<Endpoint[]>("/webhooks")
      .then(setEndpoints)
      .catch((error) => {
        setFailed(true);
        toast("error", errorText(t, error));
      });
  }, [t, initial]);

  async function toggle(endpoint: Endpoint) {
    try {
      const saved = await callApi("PUT /webhooks/:id", {
        params: { id: endpoint.id },
        body: { active: !endpoint.active },
      });
      setEndpoints((rows) => rows?.map((x) => (x.id === saved.id ? saved : x)) ?? null);
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <section className="page admin-page">
      <AdminHeader title={t("admin.webhooks.title")}>
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {t("admin.webhooks.add")}
        </button>
      </AdminHeader>
      <div className="admin-table-wrap scroll">
        <table className="admin-table" data-testid="webhook-endpoints">
          <thead>
            <tr>
              <th>{t("admin.webhooks.url")}</th>
              <th>{t("admin.webhooks.events")}</th>
              <th>{t("admin.webhooks.secret")}</th>
              <th>{t("admin.webhooks.active")}</th>
              <th>{t("admin.common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {(endpoints ?? []).map((e) => (
              <tr key={e.id} data-webhook-id={e.id}>
                <td data-label={t("admin.webhooks.url")} className="webhook-url">
                  {e.url}
                </td>
                <td data-label={t("admin.webhooks.events")}>
                  {e.events.map((name) => t(`admin.webhooks.eventNames.${name.replace(".", "_")}`)).join(", ")}
                </td>
                <td data-label={t("admin.webhooks.secret")}>
                  <code className="webhook-secret">{e.secret}</code>
                </td>
                <td data-label={t("admin.webhooks.active")}>
                  <input
                    type="checkbox"
                    checked={e.active}
                    onChange={() => toggle(e)}
                    aria-label={t("admin.webhooks.active")}
                  />
                </td>
                <td data-label={t("admin.common.actions")}>
                  <button
                    type="button"
                    className="button small danger"
                    onClick={() => setDeleting(e)}
                    aria-label={t("admin.common.deleteNamed", { name: e.url })}
                  >
                    {t("admin.common.delete")}
                  </button>
                </td>
              </tr>
            ))}
            <ListStatus
              variant="admin"
              colSpan={5}
              loading={endpoints === null && !failed}
              empty={endpoints?.length === 0}
              failed={failed}
            />
          </tbody>
        </table>
      </div>
      {/* A new `key` remounts the log, which then loads the deliveries again. */}
      <DeliveryLog key={log} initial={log === 0 ? initial?.deliveries : null} />
      {adding && (
        <EndpointModal
          onClose={() => setAdding(false)}
          onSaved={(saved) => {
            setEndpoints((rows) => [...(rows ?? []), saved]);
            setAdding(false);
            setLog((n) => n + 1);
          }}
        />
      )}
      {deleting && (
        <Confirm
          variant="admin"
          title={t("admin.webhooks.deleteTitle")}
          text={t("admin.webhooks.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting).then(() => setLog((n) => n + 1))}
        />
      )}
    </section>
  );
}

function EndpointModal({ onClose, onSaved }: { onClose: () => void; onSaved: (endpoint: Endpoint) => void }) {
  const t = useT();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useFormSave();

  async function save() {
    const found = /^https?:\/\/\S+$/i.test(url.trim()) ? null : t("errors.ERR_INVALID_WEBHOOK_URL");
    setError(found);
    if (found || !events.length) return;
    await run(async () => {
      const saved = await callApi("POST /webhooks", { body: { url: url.trim(), events } });
      toast("success", t("admin.webhooks.saved"));
      onSaved(saved);
    });
  }

  const flip = (name: string) =>
    setEvents((list) => (list.includes(name) ? list.filter((x) => x !== name) : [...list, name]));
  return (
    <Modal
      variant="admin"
      title={t("admin.webhooks.addTitle")}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
      okDisabled={!events.length}
    >
      <Input label={t("admin.webhooks.url")} value={url} onChange={setUrl} error={error} maxLength={2000} />
      <fieldset className="webhook-events">
        <legend>{t("admin.webhooks.events")}</legend>
        {WEBHOOK_EVENTS.map((name) => (
          <label key={name}>
            <input type="checkbox" checked={events.includes(name)} onChange={() => flip(name)} />{" "}
            {t(`admin.webhooks.eventNames.${name.replace(".", "_")}`)}
          </label>
        ))}
      </fieldset>
    </Modal>
  );
}
