import { useEffect, useState } from "react";
import { callApi } from "../lib/api";
import { AvailabilityLabel } from "../lib/availability";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Onboarding } from "../lib/onboarding";
import { on } from "../lib/socket";
import type { DashboardDto } from "../../src/shared/contracts/dashboard";
import type { OnboardingDto } from "../../src/shared/contracts/onboarding";
import type { Wire } from "../../src/shared/contracts/wire";
import { toast } from "../lib/toast";

export type DashboardData = Wire<DashboardDto>;

const FIRST_HOUR = 8;
const REFRESH_DEBOUNCE_MS = 1000;

/**
 * The / dashboard: in service / waiting / closed counters, today's tickets per hour (08:00–19:00) as CSS bars and,
 * beside them, the team: who is online now and each user's tickets in service; admins also see the first-run
 * checklist until it is done.
 */
export default function Dashboard({
  initial,
  onboarding,
}: {
  initial: DashboardData | null;
  onboarding?: OnboardingDto | null;
}) {
  const t = useT();
  const [data, setData] = useState<DashboardData | null>(initial);

  useEffect(() => {
    let live = true;
    const load = () =>
      callApi("GET /dashboard")
        .then((d) => live && setData(d))
        .catch((error) => live && toast("error", errorText(t, error)));
    if (!initial) void load();
    // Ticket changes reach this user's rooms only, so a refresh after one keeps the counters honest; a user's
    // change (availability, a new or deleted user) refreshes the team.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(load, REFRESH_DEBOUNCE_MS);
    };
    const offs = [on("ticket", refresh), on("user", refresh)];
    return () => {
      live = false;
      clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [initial, t]);

  const max = Math.max(1, ...(data?.hourly ?? []));
  const counter = (key: "open" | "pending" | "closed", label: string) => (
    <div className={`counter counter-${key}`}>
      <span className="counter-label">{label}</span>
      <strong className="counter-value">{data ? data[key] : "–"}</strong>
    </div>
  );
  return (
    <div className="dashboard">
      {onboarding && <Onboarding initial={onboarding} />}
      <div className="dashboard-grid">
        <div className="dashboard-main">
          <div className="counters">
            {counter("open", t("agent.dashboard.open"))}
            {counter("pending", t("agent.dashboard.pending"))}
            {counter("closed", t("agent.dashboard.closed"))}
          </div>
          <figure className="chart">
            <figcaption>{t("agent.dashboard.chartTitle")}</figcaption>
            <ol className="bars">
              {(data?.hourly ?? new Array<number>(12).fill(0)).map((n, i) => {
                const hour = `${String(FIRST_HOUR + i).padStart(2, "0")}:00`;
                return (
                  <li key={hour} className="bar-slot" aria-label={t("agent.dashboard.barLabel", { hour, n })}>
                    <span className="bar-value">{n}</span>
                    <span className="bar-track">
                      <span className="bar" style={{ height: `${(n / max) * 100}%` }} />
                    </span>
                    <span className="bar-hour">{hour}</span>
                  </li>
                );
              })}
            </ol>
          </figure>
        </div>
        <Team team={data?.team ?? []} />
      </div>
    </div>
  );
}

/** Who is online now, and each user's tickets in service (among those the viewer may see). */
function Team({ team }: { team: DashboardData["team"] }) {
  const t = useT();
  const online = team.filter((m) => m.availability === "online").length;
  return (
    <section className="team" aria-labelledby="dashboard-team">
      <h2 id="dashboard-team" className="team-title">
        {t("agent.dashboard.team")}
      </h2>
      <p className="team-online">{t("agent.dashboard.onlineNow", { count: online })}</p>
      <div className="team-scroll">
        <table className="team-table">
          <thead>
            <tr>
              <th scope="col">{t("agent.dashboard.teamName")}</th>
              <th scope="col">{t("agent.dashboard.teamStatus")}</th>
              <th scope="col" className="team-open">
                {t("agent.dashboard.teamOpen")}
              </th>
            </tr>
          </thead>
          <tbody>
            {team.map((m) => (
              <tr key={m.id} data-user-id={m.id}>
                <td className="team-name">{m.name}</td>
                <td>
                  <AvailabilityLabel availability={m.availability} />
                </td>
                <td className="team-open">{m.openTickets}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
