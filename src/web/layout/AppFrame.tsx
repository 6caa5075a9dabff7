import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import type { BootUser } from "../../../islands/lib/boot";
import { Icon, type IconName } from "../../../islands/lib/icons";
import { isAdmin } from "../../shared/permissions";
import type { IslandComponent } from "../island";

interface NavItem {
  href: string;
  key: string;
  icon: IconName;
}

const MAIN: NavItem[] = [
  { href: "/", key: "drawer.dashboard", icon: "dashboard" },
  { href: "/tickets", key: "drawer.tickets", icon: "chat" },
  { href: "/contacts", key: "drawer.contacts", icon: "contacts" },
  { href: "/quickAnswers", key: "drawer.quickAnswers", icon: "bolt" },
  { href: "/schedules", key: "drawer.schedules", icon: "clock" },
  { href: "/reports", key: "drawer.reports", icon: "chart" },
];

const ADMIN: NavItem[] = [
  { href: "/users", key: "drawer.users", icon: "people" },
  { href: "/Queues", key: "drawer.queues", icon: "queue" },
  { href: "/tags", key: "drawer.tags", icon: "tag" },
  { href: "/connections", key: "drawer.connections", icon: "signal" },
  { href: "/Settings", key: "drawer.settings", icon: "settings" },
  { href: "/webhooks", key: "drawer.webhooks", icon: "send" },
  { href: "/BulkMessage", key: "drawer.bulkMessage", icon: "send" },
  { href: "/ShippingReport", key: "drawer.shippingReport", icon: "file" },
  { href: "/SettingsMessage", key: "drawer.settingsMessage", icon: "settings" },
];

const SANDBOX: NavItem = { href: "/sandbox", key: "drawer.sandbox", icon: "chat" };

function isActive(path: string, href: string) {
  return href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);
}

/**
 * The private-page frame: a skip link to the page's content (first Tab stop), app bar (title, bell, user menu) and
 * the drawer (admin section for admins only).
 */
export function AppFrame({
  t,
  user,
  path,
  Island,
  sandbox,
  connectionWarning,
  children,
}: {
  t: TFunction;
  user: BootUser;
  path: string;
  Island: IslandComponent;
  sandbox?: boolean;
  connectionWarning?: boolean;
  children: ReactNode;
}) {
  const link = (item: NavItem) => (
    <li key={item.href}>
      <a href={item.href} aria-current={isActive(path, item.href) ? "page" : undefined}>
        <Icon name={item.icon} size={20} />
        {t(item.key)}
        {item.href === "/connections" && (
          <Island name="ConnectionsBadge" className="badge-host" props={{ initial: !!connectionWarning }} />
        )}
      </a>
    </li>
  );
  return (
    <div className="app">
      <a className="skip-link" href="#content">
        {t("app.skipToContent")}
      </a>
      <header className="appbar">
        <Island name="NavToggle" className="nav-toggle-host" />
        <a className="appbar-title" href="/">
          {t("app.title")}
        </a>
        <span className="appbar-spacer" />
        <Island name="NotificationsBell" props={{ userId: user.id, isAdmin: user.profile === "admin" }} />
        <Island
          name="UserMenu"
          props={{ userId: user.id, name: user.name, email: user.email, availability: user.availability }}
        />
      </header>
      <nav id="drawer" className="drawer" aria-label={t("app.title")}>
        <ul>{MAIN.map(link)}</ul>
        {isAdmin(user.profile) && (
          <>
            <p className="drawer-section">{t("drawer.administration")}</p>
            <ul>{(sandbox ? [...ADMIN, SANDBOX] : ADMIN).map(link)}</ul>
          </>
        )}
      </nav>
      <div className="drawer-backdrop" />
      <main id="content" className="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
