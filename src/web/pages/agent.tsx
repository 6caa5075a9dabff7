import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import type { BootUser } from "../../../islands/lib/boot";
import type { AppDeps } from "../../deps";
import { listContacts } from "../../modules/contacts/service";
import { onboardingFor } from "../../modules/dashboard/onboarding";
import { dashboardFor } from "../../modules/dashboard/service";
import { listQuickAnswers } from "../../modules/quick-answers/service";
import { reportSummary } from "../../modules/reports/service";
import { listSchedules } from "../../modules/schedules/service";
import { loadAuthUser } from "../../modules/users/service";
import { can, isAdmin } from "../../shared/permissions";
import type { IslandComponent } from "../island";
import { firstPage } from "./first-page";

/** Paths of the agent screens rendered by `agentPage`. */
export function isAgentPath(path: string): boolean {
  return (
    path === "/" ||
    path === "/contacts" ||
    path === "/quickAnswers" ||
    path === "/schedules" ||
    path === "/reports" ||
    path.startsWith("/ticketfind/")
  );
}

/**
 * The main content of an agent screen (/, /contacts, /quickAnswers, /schedules, /reports, /ticketfind/:phone), or
 * null for another path.
 */
export async function agentPage({
  deps,
  Island,
  t,
  user,
  path,
  params,
}: {
  deps: AppDeps;
  Island: IslandComponent;
  t: TFunction;
  user: BootUser;
  path: string;
  params?: Record<string, string>;
}): Promise<ReactNode> {
  if (path === "/") {
    const auth = await loadAuthUser(deps.db, user.id);
    const initial = auth ? await dashboardFor(deps.db, auth, deps.clock.now(), deps.config.timeZone) : null;
    const onboarding =
      auth && can(auth.profile, "settings:manage") ? await onboardingFor(deps.db, deps.config.sandbox) : null;
    return (
      <section className="page">
        <h1 className="page-title">{t("agent.dashboard.title")}</h1>
        <Island name="AgentDashboard" props={{ initial, onboarding }} />
      </section>
    );
  }
  if (path === "/contacts") {
    return (
      <section className="page page-fill">
        <h1 className="page-title">{t("agent.contacts.title")}</h1>
        <Island
          name="AgentContacts"
          className="island-fill"
          props={{
            userId: user.id,
            canDelete: can(user.profile, "contacts-page:deleteContact"),
            initial: firstPage(await listContacts(deps.db, {}), "contacts"),
          }}
        />
      </section>
    );
  }
  if (path === "/quickAnswers") {
    return (
      <section className="page page-fill">
        <h1 className="page-title">{t("agent.quickAnswers.title")}</h1>
        <Island
          name="AgentQuickAnswers"
          className="island-fill"
          props={{ initial: firstPage(await listQuickAnswers(deps.db, {}), "quickAnswers") }}
        />
      </section>
    );
  }
  if (path === "/schedules") {
    return (
      <section className="page page-fill">
        <h1 className="page-title">{t("agent.schedules.title")}</h1>
        <Island
          name="AgentSchedules"
          className="island-fill"
          props={{ initial: firstPage(await listSchedules(deps.db, {}), "schedules") }}
        />
      </section>
    );
  }
  if (path === "/reports") {
    const auth = await loadAuthUser(deps.db, user.id);
    if (!auth) return null;
    const initial = await reportSummary(deps.db, auth, {}, deps.clock.now(), deps.config.timeZone);
    return (
      <section className="page">
        <h1 className="page-title">{t("agent.reports.title")}</h1>
        <Island name="AgentReports" props={{ initial, admin: isAdmin(auth.profile) }} />
      </section>
    );
  }
  if (path.startsWith("/ticketfind/")) {
    const phone = (params?.phone ?? "").slice(0, 50);
    return <Island name="AgentTicketFind" props={{ phone }} />;
  }
  return null;
}
