import { type FormEvent, type MouseEvent, useState } from "react";
import { apiResponse, callApi, queryString } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";
import {
  REPORT_FIGURES,
  type ReportFigures,
  type ReportQuery,
  type ReportSummaryDto,
} from "../../src/shared/contracts/reports";
import type { Wire } from "../../src/shared/contracts/wire";
import { DayBars, FirstResponseLine, Heatmap } from "./report-charts";
import { duration } from "./report-format";

export type ReportData = Wire<ReportSummaryDto>;

/**
 * The /reports screen: a span of local days with queue and agent filters (agents see only their own line), the
 * per-agent and per-queue tables, created/resolved and median first response per day, arrivals per weekday × hour,
 * and the tables as CSV.
 */
export default function Reports({ initial, admin }: { initial: ReportData; admin: boolean }) {
  const t = useT();
  const [data, setData] = useState(initial);
  const [from, setFrom] = useState(initial.days[0]?.date ?? "");
  const [to, setTo] = useState(initial.days.at(-1)?.date ?? "");
  const [queueId, setQueueId] = useState("");
  const [userId, setUserId] = useState("");
  const [busy, setBusy] = useState(false);
  const query: ReportQuery = {
    from: from || undefined,
    to: to || undefined,
    queueIds: queueId ? [Number(queueId)] : undefined,
    userIds: userId ? [Number(userId)] : undefined,
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    callApi("GET /reports/summary", { query })
      .then(setData)
      .catch((error) => toast("error", errorText(t, error)))
      .finally(() => setBusy(false));
  };

  return (
    <div className="reports">
      <form className="report-filters" onSubmit={apply}>
        <label className="field">
          <span>{t("agent.reports.from")}</span>
          <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("agent.reports.to")}</span>
          <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </label>
        <Choice
          label={t("agent.reports.queue")}
          all={t("agent.reports.allQueues")}
          value={queueId}
          onChange={setQueueId}
          options={initial.queues.map((q) => ({ id: q.queueId, name: q.name }))}
        />
        {admin && (
          <Choice
            label={t("agent.reports.agent")}
            all={t("agent.reports.allAgents")}
            value={userId}
            onChange={setUserId}
            options={initial.agents.map((a) => ({ id: a.userId, name: a.name }))}
          />
        )}
        <div className="report-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {t("agent.reports.apply")}
          </button>
          <CsvLink query={query} />
        </div>
      </form>
      <FigureTable
        title={t("agent.reports.agentsTable")}
        lines={data.agents.map((a) => ({ key: a.userId, name: a.name, figures: a }))}
        totals={admin ? data.totals : undefined}
      />
      <FigureTable
        title={t("agent.reports.queuesTable")}
        lines={data.queues.map((q) => ({ key: q.queueId, name: q.name, figures: q }))}
      />
      <div className="report-charts">
        <DayBars days={data.days} />
        <FirstResponseLine days={data.days} />
      </div>
      <Heatmap heatmap={data.heatmap} />
    </div>
  );
}

/** A filter's select: every one, or one of `options`. */
function Choice(p: {
  label: string;
  all: string;
  value: string;
  onChange: (value: string) => void;
  options: { id: number; name: string }[];
}) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <select value={p.value} onChange={(e) => p.onChange(e.target.value)}>
        <option value="">{p.all}</option>
        {p.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

const SECONDS = new Set<string>([
  "firstResponseMedianSeconds",
  "firstResponseP90Seconds",
  "resolutionMedianSeconds",
  "resolutionP90Seconds",
]);

function cell(key: (typeof REPORT_FIGURES)[number], figures: ReportFigures): string {
  const value = figures[key];
  if (SECONDS.has(key)) return duration(value);
  return value === null ? "–" : String(value);
}

/** One table of figures, a line per agent or queue (and the totals), scrolling sideways on a narrow screen. */
function FigureTable({
  title,
  lines,
  totals,
}: {
  title: string;
  lines: { key: number; name: string; figures: ReportFigures }[];
  totals?: ReportFigures;
}) {
  const t = useT();
  return (
    <section className="report-table">
      <h2>{title}</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls a table wider than the screen once it is focused */}
      <div className="report-scroll" tabIndex={0}>
        <table className="report-grid">
          <thead>
            <tr>
              <th scope="col">{t("agent.reports.name")}</th>
              {REPORT_FIGURES.map((key) => (
                <th key={key} scope="col" className="num">
                  {t(`agent.reports.figures.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.key} data-id={line.key}>
                <th scope="row">{line.name}</th>
                {REPORT_FIGURES.map((key) => (
                  <td key={key} className="num" data-figure={key}>
                    {cell(key, line.figures)}
                  </td>
                ))}
              </tr>
            ))}
            {lines.length === 0 && (
              <tr>
                <td colSpan={REPORT_FIGURES.length + 1}>{t("agent.reports.noData")}</td>
              </tr>
            )}
          </tbody>
          {totals && (
            <tfoot>
              <tr>
                <th scope="row">{t("agent.reports.totals")}</th>
                {REPORT_FIGURES.map((key) => (
                  <td key={key} className="num">
                    {cell(key, totals)}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </section>
  );
}

/** The CSV of the filtered tables: fetched with the session's token, then saved as a file. */
function CsvLink({ query }: { query: ReportQuery }) {
  const t = useT();
  const path = `/reports/summary.csv?${queryString(query)}`;
  const download = async (event: MouseEvent) => {
    event.preventDefault();
    let res: Response;
    try {
      res = await apiResponse(path);
    } catch (error) {
      toast("error", errorText(t, error));
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = `report-${query.from ?? ""}-${query.to ?? ""}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <a className="button" href={`/api${path}`} onClick={download} download>
      {t("agent.reports.download")}
    </a>
  );
}
