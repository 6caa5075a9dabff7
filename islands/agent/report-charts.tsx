import { useT } from "../lib/i18n-context";
import type { ReportSummaryDto } from "../../src/shared/contracts/reports";
import type { Wire } from "../../src/shared/contracts/wire";
import { duration } from "./report-format";

type Days = Wire<ReportSummaryDto>["days"];

const WIDTH = 600;
const HEIGHT = 160;
const PAD = 20;

/** Tickets created and resolved per day: two bars a day, as SVG. */
export function DayBars({ days }: { days: Days }) {
  const t = useT();
  const max = Math.max(1, ...days.flatMap((d) => [d.created, d.resolved]));
  const slot = (WIDTH - PAD) / Math.max(1, days.length);
  const bar = Math.max(1, slot / 2 - 2);
  const y = (n: number) => HEIGHT - PAD - (n / max) * (HEIGHT - 2 * PAD);
  return (
    <figure className="chart report-chart">
      <figcaption>{t("agent.reports.perDay")}</figcaption>
      <Legend />
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t("agent.reports.perDay")}>
        <line className="axis" x1={PAD} x2={WIDTH} y1={HEIGHT - PAD} y2={HEIGHT - PAD} />
        {days.map((d, i) => {
          const x = PAD + i * slot;
          return (
            <g key={d.date}>
              <title>{t("agent.reports.dayLabel", { date: d.date, created: d.created, resolved: d.resolved })}</title>
              <rect
                className="bar-created"
                x={x + 1}
                y={y(d.created)}
                width={bar}
                height={HEIGHT - PAD - y(d.created)}
              />
              <rect
                className="bar-resolved"
                x={x + 1 + bar}
                y={y(d.resolved)}
                width={bar}
                height={HEIGHT - PAD - y(d.resolved)}
              />
            </g>
          );
        })}
        <DayTicks days={days} slot={slot} />
      </svg>
    </figure>
  );
}

function Legend() {
  const t = useT();
  return (
    <p className="report-legend">
      <span className="swatch swatch-created" /> {t("agent.reports.created")}{" "}
      <span className="swatch swatch-resolved" /> {t("agent.reports.resolved")}
    </p>
  );
}

/** The first and last day, and a few between, under the chart. */
function DayTicks({ days, slot }: { days: Days; slot: number }) {
  const every = Math.max(1, Math.ceil(days.length / 6));
  return (
    <>
      {days.map((d, i) =>
        i % every === 0 || i === days.length - 1 ? (
          <text key={d.date} className="tick" x={PAD + i * slot + slot / 2} y={HEIGHT - 4} textAnchor="middle">
            {d.date.slice(5)}
          </text>
        ) : null,
      )}
    </>
  );
}

/** The median first response per day as a line (days without one leave a gap). */
export function FirstResponseLine({ days }: { days: Days }) {
  const t = useT();
  const values = days.map((d) => d.firstResponseMedianSeconds);
  const max = Math.max(1, ...values.map((v) => v ?? 0));
  const slot = (WIDTH - PAD) / Math.max(1, days.length);
  const point = (v: number, i: number) =>
    `${(PAD + i * slot + slot / 2).toFixed(1)},${(HEIGHT - PAD - (v / max) * (HEIGHT - 2 * PAD)).toFixed(1)}`;
  const runs: string[][] = [[]];
  values.forEach((v, i) => {
    if (v === null) runs.push([]);
    else runs.at(-1)!.push(point(v, i));
  });
  return (
    <figure className="chart report-chart">
      <figcaption>{t("agent.reports.firstResponsePerDay")}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t("agent.reports.firstResponsePerDay")}>
        <line className="axis" x1={PAD} x2={WIDTH} y1={HEIGHT - PAD} y2={HEIGHT - PAD} />
        <text className="tick" x={PAD} y={6} dominantBaseline="hanging">
          {duration(max)}
        </text>
        {runs
          .filter((r) => r.length)
          .map((r) => (
            <polyline key={r[0]} className="line" points={r.join(" ")} />
          ))}
        {values.map((v, i) =>
          v === null ? null : (
            <circle
              key={days[i]!.date}
              className="dot"
              cx={point(v, i).split(",")[0]}
              cy={point(v, i).split(",")[1]}
              r={3}
            >
              <title>{`${days[i]!.date}: ${duration(v)}`}</title>
            </circle>
          ),
        )}
        <DayTicks days={days} slot={slot} />
      </svg>
    </figure>
  );
}

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/** Tickets created per weekday × hour, as a table whose cells darken with the count. */
export function Heatmap({ heatmap }: { heatmap: number[][] }) {
  const t = useT();
  const max = Math.max(1, ...heatmap.flat());
  return (
    <figure className="chart report-chart">
      <figcaption>{t("agent.reports.heatmap")}</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls a table wider than the screen once it is focused */}
      <div className="report-scroll" tabIndex={0}>
        <table className="heatmap">
          <thead>
            <tr>
              <th />
              {Array.from({ length: 24 }, (_, h) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the hours are the columns
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {heatmap.map((hours, day) => (
              <tr key={WEEKDAYS[day]}>
                <th scope="row">{t(`agent.reports.weekdays.${WEEKDAYS[day]}`)}</th>
                {hours.map((n, h) => (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: the hours are the columns
                    key={h}
                    title={`${t(`agent.reports.weekdays.${WEEKDAYS[day]}`)} ${h}:00 · ${n}`}
                    style={
                      n
                        ? {
                            // At most 45% of the primary colour: the count keeps a 4.5:1 contrast in both themes.
                            background: `color-mix(in srgb, var(--primary) ${Math.round(10 + (35 * n) / max)}%, transparent)`,
                          }
                        : undefined
                    }
                  >
                    {n || ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
