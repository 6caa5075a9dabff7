import { REPORT_FIGURES, type ReportFigures, type ReportSummaryDto } from "../../shared/contracts/reports";

/**
 * The summary's agents and queues tables as CSV (RFC 4180, CRLF): one header line, then a line per agent and per
 * queue, the first columns saying which (`agent` or `queue`, its id and name), empty cells where a figure is null.
 */
export function summaryCsv(summary: ReportSummaryDto): string {
  const lines = [["table", "id", "name", ...REPORT_FIGURES]];
  const figures = (f: ReportFigures) => REPORT_FIGURES.map((key) => (f[key] === null ? "" : String(f[key])));
  for (const a of summary.agents) lines.push(["agent", String(a.userId), a.name, ...figures(a)]);
  for (const q of summary.queues) lines.push(["queue", String(q.queueId), q.name, ...figures(q)]);
  return `${lines.map((cells) => cells.map(cell).join(",")).join("\r\n")}\r\n`;
}

/** A cell quoted when it needs to be; a leading formula sign is defused so spreadsheets show it as text. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
