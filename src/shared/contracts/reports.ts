/**
 * GET /reports/summary and /reports/summary.csv: the span [from, to) as ISO instants (default: the last 7 days in
 * the installation's time zone, today included) and, optionally, the queues and agents to count (JSON arrays).
 */
export interface ReportQuery {
  from?: string;
  to?: string;
  queueIds?: number[];
  userIds?: number[];
}

/** The figures of one agent, one queue or all of them over the span (times in whole seconds, null when none). */
export interface ReportFigures {
  created: number;
  resolved: number;
  reopened: number;
  firstResponseMedianSeconds: number | null;
  firstResponseP90Seconds: number | null;
  resolutionMedianSeconds: number | null;
  resolutionP90Seconds: number | null;
  messagesSent: number;
  /** The mean rating 1–5, two decimals; null without ratings. */
  csatAverage: number | null;
  csatCount: number;
  slaBreaches: number;
}

export interface AgentReportLine extends ReportFigures {
  userId: number;
  name: string;
}

export interface QueueReportLine extends ReportFigures {
  queueId: number;
  name: string;
}

/** One local day of the span (YYYY-MM-DD in the installation's time zone). */
export interface ReportDay {
  date: string;
  created: number;
  resolved: number;
  firstResponseMedianSeconds: number | null;
}

/** GET /reports/summary. */
export interface ReportSummaryDto {
  from: string;
  to: string;
  timeZone: string;
  totals: ReportFigures;
  agents: AgentReportLine[];
  queues: QueueReportLine[];
  days: ReportDay[];
  /** Tickets created per local weekday (0 = Monday … 6 = Sunday) and hour (0–23): 7 rows of 24 counts. */
  heatmap: number[][];
}

/** The figure columns in the order the screen and the CSV show them. */
export const REPORT_FIGURES = [
  "created",
  "resolved",
  "reopened",
  "firstResponseMedianSeconds",
  "firstResponseP90Seconds",
  "resolutionMedianSeconds",
  "resolutionP90Seconds",
  "messagesSent",
  "csatAverage",
  "csatCount",
  "slaBreaches",
] as const satisfies readonly (keyof ReportFigures)[];
