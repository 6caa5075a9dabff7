import type { TFunction } from "i18next";
import type { BootUser } from "../../../islands/lib/boot";
import type { AppDeps } from "../../deps";
import { listReport } from "../../modules/bulk/service";
import { listConnections } from "../../modules/connections/service";
import { listQueues } from "../../modules/queues/service";
import { listSettingRows } from "../../modules/settings/service";
import { listTags } from "../../modules/tags/service";
import { listUsers } from "../../modules/users/service";
import { listDeliveries } from "../../modules/webhooks/deliveries";
import { listEndpoints } from "../../modules/webhooks/endpoints";
import { listBackups } from "../../ops/backup-job";
import { offsiteStatus } from "../../ops/backup-uploads";
import { toWire } from "../../shared/contracts/wire";
import { can, isAdmin } from "../../shared/permissions";
import type { IslandComponent } from "../island";
import { firstPage } from "./first-page";

/** Administration routes and their islands; `adminOnly` routes show a no-permission frame to agents. */
const ADMIN_PAGES = {
  "/connections": { island: "AdminConnections", adminOnly: true },
  "/users": { island: "AdminUsers", adminOnly: true },
  "/Queues": { island: "AdminQueues", adminOnly: true },
  "/Settings": { island: "AdminSettings", adminOnly: true },
  "/webhooks": { island: "AdminWebhooks", adminOnly: true },
  "/tags": { island: "AdminTags", adminOnly: false },
  "/BulkMessage": { island: "BulkMessage", adminOnly: true },
  "/ShippingReport": { island: "BulkReport", adminOnly: true },
  "/SettingsMessage": { island: "BulkSettings", adminOnly: true },
} as const;

/** True when `path` is one of the administration screens. */
export function isAdminPage(path: string): path is keyof typeof ADMIN_PAGES {
  return Object.hasOwn(ADMIN_PAGES, path);
}

/** The main area of an administration screen: its island, or a 403 frame when the user may not open it. */
export async function adminPage({
  deps,
  Island,
  t,
  user,
  path,
  sandbox,
}: {
  deps: AppDeps;
  Island: IslandComponent;
  t: TFunction;
  user: BootUser;
  path: keyof typeof ADMIN_PAGES;
  sandbox: boolean;
}) {
  const page = ADMIN_PAGES[path];
  if (page.adminOnly && !isAdmin(user.profile)) {
    return (
      <section className="empty-state" data-forbidden="true">
        <h1>{t("admin.forbidden.title")}</h1>
        <p>{t("errors.ERR_NO_PERMISSION")}</p>
      </section>
    );
  }
  // The screens get their first data from here, loaded as their API routes load it for this user.
  switch (page.island) {
    case "AdminConnections":
      return (
        <Island
          name="AdminConnections"
          props={{ sandbox, initial: toWire(await listConnections(deps.db, user.profile)) }}
        />
      );
    case "AdminUsers":
      return <Island name="AdminUsers" props={{ initial: firstPage(await listUsers(deps.db, {}), "users") }} />;
    case "AdminQueues":
      return <Island name="AdminQueues" props={{ initial: toWire(await listQueues(deps.db)) }} />;
    case "AdminTags":
      return (
        <Island
          name="AdminTags"
          props={{ canEdit: can(user.profile, "tags:edit"), initial: firstPage(await listTags(deps.db, {}), "tags") }}
        />
      );
    case "AdminSettings":
      return (
        <Island
          name="AdminSettings"
          props={{
            initial: toWire({
              settings: await listSettingRows(deps.db),
              backups: listBackups(deps.config),
              offsite: await offsiteStatus(deps.db, deps.config),
            }),
          }}
        />
      );
    case "AdminWebhooks":
      return (
        <Island
          name="AdminWebhooks"
          props={{
            initial: toWire({
              endpoints: await listEndpoints(deps.db),
              deliveries: (await listDeliveries(deps.db, {})).deliveries,
            }),
          }}
        />
      );
    case "BulkMessage":
      return <Island name="BulkMessage" props={{ connections: await connectionOptions(deps, user) }} />;
    case "BulkSettings":
      return <Island name="BulkSettings" props={{ connections: await connectionOptions(deps, user) }} />;
    case "BulkReport":
      return <Island name="BulkReport" props={{ initial: firstPage(await listReport(deps.db, {}), "messages") }} />;
  }
}

/** The connections a bulk screen's picker offers, as `GET /whatsapp/` lists them, without the session details. */
async function connectionOptions(deps: AppDeps, user: BootUser) {
  return (await listConnections(deps.db, user.profile)).map(({ id, name, number, isDefault, provider }) => ({
    id,
    name,
    number,
    isDefault,
    provider,
  }));
}
