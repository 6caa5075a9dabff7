import type { TFunction } from "i18next";
import type { BootUser } from "../../../islands/lib/boot";
import { can, isAdmin } from "../../shared/permissions";
import type { IslandComponent } from "../island";

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
export function AdminPage({
  Island,
  t,
  user,
  path,
  sandbox,
}: {
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
  switch (page.island) {
    case "AdminConnections":
      return <Island name="AdminConnections" props={{ sandbox }} />;
    case "AdminTags":
      return <Island name="AdminTags" props={{ canEdit: can(user.profile, "tags:edit") }} />;
    default:
      return <Island name={page.island} />;
  }
}
