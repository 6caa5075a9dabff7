import { useEffect, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Onboarding } from "../lib/onboarding";
import { on } from "../lib/socket";
import type { OnboardingDto } from "../../src/shared/contracts/onboarding";
import { toast } from "../lib/toast";

export interface DashboardData {
  open: number;
  pending: number;
  closed: number;
  hourly: number[];
}

const FIRST_HOUR = 8;
const REFRESH_DEBOUNCE_MS = 1000;

/**
 * The / dashboard: in service / waiting / closed counters and today's tickets per hour (08:00–19:00) as CSS bars;
 * admins also see the first-run checklist until it is done.
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
      api<DashboardData>("/dashboard")
        .then((d) => live && setData(d))
        .catch((error) => live && toast("error", errorText(t, error)));
    if (!initial) void load();
    // Ticket changes reach this user's rooms only, so a refresh after one keeps the counters honest.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = on("ticket", () => {
      clearTimeout(timer);
      timer = setTimeout(load, REFRESH_DEBOUNCE_MS);
    });
    return () => {
      live = false;
      clearTimeout(timer);
      off();
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
  );
}
